/*
 * dt_bounds.c: nested derived types through messages and MPI_Pack, where
 * count > 1 elements must be laid out one extent apart (MPI-2.2 section
 * 4.1.7), the extent being the hand-computed one: T3 = hvector(2, 3, 273)
 * of A = hvector(3, 4, 25, MPI_INT) has extent 480 (A: 66 bytes of data
 * padded to 68; T3's last copy of A at 409 ends at 477, padded to 480).
 * Also MPI_Get_elements and MPI_Get_count across nested types with
 * markers, and MPI_Type_get_envelope/contents of a nested type rebuilt
 * into an equal one. Runs on 1 rank (messages to itself) or 2 (the two
 * exchange).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define T3_EXTENT 480
#define T3_INTS 72 /* 2 blocks x 3 copies of A x 3 blocks x 4 ints */

static int peer;

/* byte offset of packed byte p of T3 elements (element e at e * 480):
 * block b at b * 273, copy c of A at c * 68, block k of A at k * 25 */
static size_t t3_offset(size_t p)
{
    size_t j = p % 16, k = p / 16 % 3, c = p / 48 % 3, b = p / 144 % 2, e = p / 288;
    return e * T3_EXTENT + b * 273 + c * 68 + k * 25 + j;
}

static void make_t3(MPI_Datatype *a, MPI_Datatype *t3)
{
    CHECK_OK(MPI_Type_create_hvector(3, 4, 25, MPI_INT, a));
    CHECK_OK(MPI_Type_create_hvector(2, 3, 273, *a, t3));
    CHECK_OK(MPI_Type_commit(t3));
}

static void test_t3_messages(void)
{
    MPI_Datatype a, t3;
    make_t3(&a, &t3);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t3, &lb, &ext);
    CHECK(lb == 0 && ext == T3_EXTENT, "T3: lb %ld extent %ld, expected 0 and %d", (long)lb, (long)ext, T3_EXTENT);

    enum { BUF = 2 * T3_EXTENT, PACKED = 2 * T3_INTS * 4 };
    unsigned char *src = malloc(BUF), *dst = malloc(BUF), *flat = malloc(PACKED);
    CHECK(src && dst && flat, "out of memory");
    for (int i = 0; i < BUF; i++)
        src[i] = (unsigned char)(i * 7 + 1);

    /* two T3s out, a contiguous run of ints in */
    CHECK_OK(MPI_Sendrecv(src, 2, t3, peer, 1, flat, 2 * T3_INTS, MPI_INT, peer, 1, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    for (size_t p = 0; p < PACKED; p++)
        CHECK(flat[p] == src[t3_offset(p)], "received byte %zu is %d, expected byte %zu of the T3s (%d)", p,
              flat[p], t3_offset(p), src[t3_offset(p)]);

    /* a contiguous run out, two T3s in: data lands one extent apart and the
     * holes stay as they were */
    memset(dst, 0xee, BUF);
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(flat, 2 * T3_INTS, MPI_INT, peer, 2, dst, 2, t3, peer, 2, MPI_COMM_WORLD, &st));
    unsigned char *want = malloc(BUF);
    CHECK(want != NULL, "out of memory");
    memset(want, 0xee, BUF);
    for (size_t p = 0; p < PACKED; p++)
        want[t3_offset(p)] = flat[p];
    for (int i = 0; i < BUF; i++)
        CHECK(dst[i] == want[i], "byte %d of the two received T3s is %d, expected %d", i, dst[i], want[i]);
    int n;
    CHECK_OK(MPI_Get_count(&st, t3, &n));
    CHECK(n == 2, "MPI_Get_count: %d T3s, expected 2", n);

    /* MPI_Pack / MPI_Unpack of two T3s */
    int psize, pos = 0;
    CHECK_OK(MPI_Pack_size(2, t3, MPI_COMM_WORLD, &psize));
    CHECK(psize >= PACKED, "MPI_Pack_size %d < %d", psize, PACKED);
    unsigned char *pk = malloc((size_t)psize);
    CHECK(pk != NULL, "out of memory");
    CHECK_OK(MPI_Pack(src, 2, t3, pk, psize, &pos, MPI_COMM_WORLD));
    CHECK(pos == PACKED, "MPI_Pack wrote %d bytes, expected %d", pos, PACKED);
    for (size_t p = 0; p < PACKED; p++)
        CHECK(pk[p] == src[t3_offset(p)], "packed byte %zu is %d, expected byte %zu of the T3s", p, pk[p],
              t3_offset(p));
    memset(dst, 0xee, BUF);
    pos = 0;
    CHECK_OK(MPI_Unpack(pk, psize, &pos, dst, 2, t3, MPI_COMM_WORLD));
    memset(want, 0xee, BUF);
    for (size_t p = 0; p < PACKED; p++)
        want[t3_offset(p)] = src[t3_offset(p)];
    for (int i = 0; i < BUF; i++)
        CHECK(dst[i] == want[i], "byte %d of the two unpacked T3s is %d, expected %d", i, dst[i], want[i]);

    /* a partial message: 100 ints into two T3s (144 ints) */
    CHECK_OK(MPI_Sendrecv(flat, 100, MPI_INT, peer, 3, dst, 2, t3, peer, 3, MPI_COMM_WORLD, &st));
    MPI_Count ne;
    CHECK_OK(MPI_Get_count(&st, t3, &n));
    CHECK(n == MPI_UNDEFINED, "MPI_Get_count of 100 ints as T3: %d, expected MPI_UNDEFINED", n);
    CHECK_OK(MPI_Get_elements_x(&st, t3, &ne));
    CHECK(ne == 100, "MPI_Get_elements_x of 100 ints as T3: %lld", (long long)ne);

    free(pk);
    free(want);
    free(src);
    free(dst);
    free(flat);
    MPI_Type_free(&t3);
    MPI_Type_free(&a);
}

/* Nested types with markers: contiguous(3, struct{LB@-4, int@0, UB@20})
 * has extent 72 (markers -4 and 68); element e's ints are at
 * e * 72 + {0, 24, 48}. */
static void test_markers_elements(void)
{
    MPI_Datatype s, s3, r, rr;
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {-4, 0, 20};
    MPI_Datatype ts[3] = {MPI_LB, MPI_INT, MPI_UB};
    CHECK_OK(MPI_Type_struct(3, bl, d, ts, &s));
    CHECK_OK(MPI_Type_contiguous(3, s, &s3));
    CHECK_OK(MPI_Type_commit(&s3));
    int in[5] = {11, 22, 33, 44, 55}, out[40];
    for (int i = 0; i < 40; i++)
        out[i] = -1;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(in, 5, MPI_INT, peer, 4, out, 2, s3, peer, 4, MPI_COMM_WORLD, &st));
    int n;
    MPI_Count ne;
    CHECK_OK(MPI_Get_elements(&st, s3, &n));
    CHECK(n == 5, "MPI_Get_elements: %d, expected 5", n);
    CHECK_OK(MPI_Get_count(&st, s3, &n));
    CHECK(n == MPI_UNDEFINED, "MPI_Get_count: %d, expected MPI_UNDEFINED", n);
    for (int i = 0; i < 40; i++) {
        int w = i % 6 == 0 && i / 6 < 5 ? in[i / 6] : -1;
        CHECK(out[i] == w, "int %d of the receive buffer is %d, expected %d", i, out[i], w);
    }

    /* resized(double, 0, 16) inside a struct with 3 chars at 8: the
     * markers (0, 16) are sticky, so the struct's extent is 16; one
     * struct holds 11 bytes, a double and 3 chars */
    CHECK_OK(MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &r));
    int bl2[2] = {1, 3};
    MPI_Aint d2[2] = {0, 8};
    MPI_Datatype ts2[2] = {r, MPI_CHAR};
    CHECK_OK(MPI_Type_create_struct(2, bl2, d2, ts2, &rr));
    CHECK_OK(MPI_Type_commit(&rr));
    MPI_Aint lb, ext;
    MPI_Type_get_extent(rr, &lb, &ext);
    CHECK(lb == 0 && ext == 16, "struct{resized(double, 0, 16), 3 chars@8}: lb %ld extent %ld, expected 0 16",
          (long)lb, (long)ext);
    char bytes[22] = {0};
    char rbuf[64];
    CHECK_OK(MPI_Sendrecv(bytes, 22, MPI_BYTE, peer, 5, rbuf, 2, rr, peer, 5, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Get_elements_x(&st, rr, &ne));
    CHECK(ne == 8, "MPI_Get_elements_x of 2 whole structs: %lld, expected 8", (long long)ne);
    CHECK_OK(MPI_Sendrecv(bytes, 20, MPI_BYTE, peer, 6, rbuf, 2, rr, peer, 6, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Get_elements_x(&st, rr, &ne));
    CHECK(ne == 6, "MPI_Get_elements_x of 20 bytes (a struct, a double, a char): %lld, expected 6",
          (long long)ne);
    CHECK_OK(MPI_Sendrecv(bytes, 14, MPI_BYTE, peer, 7, rbuf, 2, rr, peer, 7, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Get_elements_x(&st, rr, &ne));
    CHECK(ne == MPI_UNDEFINED, "MPI_Get_elements_x of 14 bytes (inside a double): %lld", (long long)ne);
    MPI_Type_free(&rr);
    MPI_Type_free(&r);
    MPI_Type_free(&s3);
    MPI_Type_free(&s);
}

/* MPI_Type_get_envelope/contents of T3 give its constructor and A's; a
 * type rebuilt from them has the same bounds. */
static void test_contents(void)
{
    MPI_Datatype a, t3;
    make_t3(&a, &t3);
    MPI_Type_free(&a); /* T3 still holds it: get_contents returns a usable handle */
    int ni, na, nd, comb, ints[4];
    MPI_Aint addrs[2];
    MPI_Datatype types[2], inner, rebuilt;
    CHECK_OK(MPI_Type_get_envelope(t3, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1, "T3's envelope: %d %d %d %d", ni, na,
          nd, comb);
    CHECK_OK(MPI_Type_get_contents(t3, 4, 2, 2, ints, addrs, types));
    CHECK(ints[0] == 2 && ints[1] == 3 && addrs[0] == 273, "T3's contents: %d %d %ld", ints[0], ints[1],
          (long)addrs[0]);
    inner = types[0];
    CHECK_OK(MPI_Type_get_envelope(inner, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1, "A's envelope: %d %d %d %d", ni, na, nd,
          comb);
    CHECK_OK(MPI_Type_get_contents(inner, 4, 2, 2, ints, addrs, types));
    CHECK(ints[0] == 3 && ints[1] == 4 && addrs[0] == 25 && types[0] == MPI_INT, "A's contents: %d %d %ld",
          ints[0], ints[1], (long)addrs[0]);
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(inner, &lb, &ext);
    CHECK(lb == 0 && ext == 68, "A from T3's contents: lb %ld extent %ld", (long)lb, (long)ext);
    CHECK_OK(MPI_Type_create_hvector(2, 3, 273, inner, &rebuilt));
    MPI_Type_get_extent(rebuilt, &lb, &ext);
    MPI_Type_get_true_extent(rebuilt, &tlb, &text);
    CHECK(lb == 0 && ext == T3_EXTENT && tlb == 0 && text == 475, "T3 rebuilt: lb %ld extent %ld true %ld %ld",
          (long)lb, (long)ext, (long)tlb, (long)text);
    MPI_Type_free(&rebuilt);
    MPI_Type_free(&inner);
    MPI_Type_free(&t3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    test_t3_messages();
    test_markers_elements();
    test_contents();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("dt_bounds: ok\n");
    MPI_Finalize();
    return 0;
}
