/*
 * dt_free_pending.c: a datatype freed while operations that use it are
 * pending keeps working until they complete (MPI_Type_free drops only the
 * user's reference): nonblocking sends and receives, small and large,
 * with the type and the types it was built from freed before the wait;
 * a persistent request whose type was freed after MPI_Send_init; types
 * freed right after building others from them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static MPI_Datatype make_type(int n)
{
    MPI_Datatype v, s, t;
    MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &v);
    int bl[2] = {1, 2};
    MPI_Aint lb, ext;
    MPI_Type_get_extent(v, &lb, &ext);
    MPI_Aint ds[2] = {0, ext + 16};
    MPI_Datatype ts[2] = {v, MPI_INT};
    MPI_Type_create_struct(2, bl, ds, ts, &s);
    MPI_Type_free(&v); /* s keeps it alive */
    MPI_Type_dup(s, &t);
    MPI_Type_free(&s);
    MPI_Type_commit(&t);
    return t;
}

static void fill(double *d, int n, int seed)
{
    for (int i = 0; i < n; i++)
        d[i] = seed * 100000.0 + i;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    const int sizes[2] = {10, 300000}; /* eager and large */
    for (int c = 0; c < 2 && rank < 2; c++) {
        int n = sizes[c];
        MPI_Datatype t = make_type(n);
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t, &lb, &ext);
        size_t nd = (size_t)ext / sizeof(double) + 4;
        double *buf = calloc(nd, sizeof(double));
        MPI_Request req[2];
        if (rank == 0) {
            fill(buf, (int)nd, c + 1);
            CHECK_OK(MPI_Isend(buf, 1, t, 1, 10 + c, MPI_COMM_WORLD, &req[0]));
            CHECK_OK(MPI_Type_free(&t));
            CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not reset the handle");
            CHECK_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
            /* a persistent send whose type is freed before it starts */
            MPI_Datatype p = make_type(n);
            CHECK_OK(MPI_Send_init(buf, 1, p, 1, 20 + c, MPI_COMM_WORLD, &req[1]));
            CHECK_OK(MPI_Type_free(&p));
            for (int k = 0; k < 2; k++) {
                CHECK_OK(MPI_Start(&req[1]));
                CHECK_OK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
            }
            CHECK_OK(MPI_Request_free(&req[1]));
        } else {
            CHECK_OK(MPI_Irecv(buf, 1, t, 0, 10 + c, MPI_COMM_WORLD, &req[0]));
            MPI_Datatype keep = make_type(n); /* same layout, to check with */
            CHECK_OK(MPI_Type_free(&t));
            CHECK_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
            double *want = calloc(nd, sizeof(double)), *src = malloc(nd * sizeof(double));
            fill(src, (int)nd, c + 1);
            int psize, pos = 0;
            MPI_Pack_size(1, keep, MPI_COMM_WORLD, &psize);
            char *tmp = malloc((size_t)psize);
            MPI_Pack(src, 1, keep, tmp, psize, &pos, MPI_COMM_WORLD);
            pos = 0;
            MPI_Unpack(tmp, psize, &pos, want, 1, keep, MPI_COMM_WORLD);
            CHECK(memcmp(buf, want, nd * sizeof(double)) == 0, "receive with a freed type (%d doubles) differs", n);
            for (int k = 0; k < 2; k++) {
                memset(buf, 0, nd * sizeof(double));
                CHECK_OK(MPI_Recv(buf, 1, keep, 0, 20 + c, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(memcmp(buf, want, nd * sizeof(double)) == 0, "persistent send with a freed type differs");
            }
            MPI_Type_free(&keep);
            free(want);
            free(src);
            free(tmp);
        }
        free(buf);
    }
    if (rank == 0)
        printf("dt_free_pending: ok\n");
    MPI_Finalize();
    return 0;
}
