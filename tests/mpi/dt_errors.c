/*
 * dt_errors.c: bad arguments to the datatype functions return the
 * standard's error class (MPI_ERR_TYPE, MPI_ERR_ARG, MPI_ERR_COUNT, ...)
 * with a message that names the argument: negative counts, blocklengths
 * and dimensions, MPI_DATATYPE_NULL and invalid handles, uncommitted types
 * in communication and packing, darrays whose distribution does not fit
 * the process grid, get_contents with arrays too small, predefined types
 * freed, statuses that are not statuses.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

/* the call fails with class cls and its message contains `needle` */
#define EXPECT(call, cls, needle)                                                                \
    do {                                                                                         \
        int rc_ = (call), c_ = -1, l_ = 0;                                                       \
        char s_[MPI_MAX_ERROR_STRING] = "";                                                      \
        if (rc_ != MPI_SUCCESS) {                                                                \
            MPI_Error_class(rc_, &c_);                                                           \
            MPI_Error_string(rc_, s_, &l_);                                                      \
        }                                                                                        \
        CHECK(c_ == (cls), "%s returned class %d, expected %s (%s)", #call, c_, #cls, s_);       \
        CHECK(strstr(s_, needle) != NULL, "%s: message \"%s\" does not mention \"%s\"", #call, s_, \
              needle);                                                                           \
    } while (0)

static void constructors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, v;
    int bl[3] = {1, -1, 2}, ds[3] = {0, 2, 4}, ok[3] = {1, 1, 1};
    MPI_Aint hd[3] = {0, 8, 16};
    EXPECT(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    EXPECT(MPI_Type_contiguous(2, 12345, &t), MPI_ERR_TYPE, "oldtype");
    EXPECT(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG, "newtype");
    EXPECT(MPI_Type_vector(-3, 1, 2, MPI_INT, &t), MPI_ERR_COUNT, "argument count");
    EXPECT(MPI_Type_vector(3, -1, 2, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    EXPECT(MPI_Type_vector(3, 1, 2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "oldtype");
    EXPECT(MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_create_hvector(1, -1, 8, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    EXPECT(MPI_Type_hvector(1, -2, 8, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    EXPECT(MPI_Type_indexed(-1, ok, ds, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_indexed(3, bl, ds, MPI_INT, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    EXPECT(MPI_Type_indexed(3, NULL, ds, MPI_INT, &t), MPI_ERR_ARG, "array_of_blocklengths");
    EXPECT(MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    EXPECT(MPI_Type_create_hindexed(-2, ok, hd, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_hindexed(3, bl, hd, MPI_INT, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    EXPECT(MPI_Type_create_indexed_block(3, -1, ds, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    EXPECT(MPI_Type_create_indexed_block(-1, 1, ds, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_create_hindexed_block(2, -1, hd, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    EXPECT(MPI_Type_create_hindexed_block(-1, 1, hd, MPI_INT, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_create_hindexed_block(2, 1, hd, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "oldtype");
    MPI_Datatype ts[3] = {MPI_INT, MPI_DATATYPE_NULL, MPI_DOUBLE};
    EXPECT(MPI_Type_create_struct(3, ok, hd, ts, &t), MPI_ERR_TYPE, "array_of_types[1]");
    MPI_Datatype ts2[3] = {MPI_INT, MPI_INT, MPI_DOUBLE};
    EXPECT(MPI_Type_create_struct(3, bl, hd, ts2, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    EXPECT(MPI_Type_create_struct(-1, ok, hd, ts2, &t), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Type_struct(3, bl, hd, ts2, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    EXPECT(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 8, &t), MPI_ERR_TYPE, "oldtype");
    EXPECT(MPI_Type_dup(MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "oldtype");
    EXPECT(MPI_Type_commit(NULL), MPI_ERR_ARG, "datatype");
    EXPECT(MPI_Type_commit(&t), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    t = MPI_INT;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE, "predefined");
    CHECK(t == MPI_INT, "a failed free changed the handle");
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_free(&v);
    EXPECT(MPI_Type_free(&v), MPI_ERR_TYPE, "datatype");
}

static void arrays(void)
{
    MPI_Datatype t;
    int sz[2] = {4, 5}, sub[2] = {2, 3}, st[2] = {1, 1};
    int bad_sz[2] = {4, -3}, bad_sub[2] = {5, 3}, bad_st[2] = {3, 0}, neg_sub[2] = {2, -1};
    EXPECT(MPI_Type_create_subarray(0, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims");
    EXPECT(MPI_Type_create_subarray(-2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims");
    EXPECT(MPI_Type_create_subarray(2, bad_sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_sizes[1]");
    EXPECT(MPI_Type_create_subarray(2, sz, bad_sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_subsizes[0]");
    EXPECT(MPI_Type_create_subarray(2, sz, neg_sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_subsizes[1]");
    EXPECT(MPI_Type_create_subarray(2, sz, sub, bad_st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_starts[0]");
    EXPECT(MPI_Type_create_subarray(2, sz, sub, st, 77, MPI_INT, &t), MPI_ERR_ARG, "order");
    EXPECT(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "oldtype");

    int gs[2] = {10, 9}, ps[2] = {2, 3}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    CHECK_OK(MPI_Type_create_darray(6, 5, 2, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t));
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_darray(4, 0, 2, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_psizes");
    EXPECT(MPI_Type_create_darray(6, 6, 2, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "rank");
    EXPECT(MPI_Type_create_darray(6, -1, 2, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "rank");
    EXPECT(MPI_Type_create_darray(0, 0, 2, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "size");
    EXPECT(MPI_Type_create_darray(6, 0, -1, gs, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims");
    int small[2] = {4, MPI_DISTRIBUTE_DFLT_DARG}; /* 4 x 2 processes < 10 elements */
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, d, small, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_dargs[0]");
    int none[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, none, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_psizes[0]");
    int badd[2] = {MPI_DISTRIBUTE_BLOCK, 999};
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, badd, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_distribs[1]");
    int negg[2] = {10, 0};
    EXPECT(MPI_Type_create_darray(6, 0, 2, negg, d, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_gsizes[1]");
    int negp[2] = {-2, -3};
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, d, da, negp, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_psizes[0]");
    int zda[2] = {MPI_DISTRIBUTE_DFLT_DARG, 0};
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, d, zda, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
           "array_of_dargs[1]");
    EXPECT(MPI_Type_create_darray(6, 0, 2, gs, d, da, ps, 3, MPI_INT, &t), MPI_ERR_ARG, "order");
}

static void inquiry(void)
{
    int i;
    MPI_Aint a, b;
    MPI_Count c;
    MPI_Status st;
    EXPECT(MPI_Type_size(MPI_DATATYPE_NULL, &i), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    EXPECT(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG, "size");
    EXPECT(MPI_Type_size_x(777, &c), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Type_get_extent(MPI_COMM_WORLD, &a, &b), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Type_get_true_extent(MPI_DATATYPE_NULL, &a, &b), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Type_lb(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Type_ub(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Get_address(&i, NULL), MPI_ERR_ARG, "address");
    EXPECT(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &i), MPI_ERR_ARG, "status");
    EXPECT(MPI_Get_count(&st, MPI_DATATYPE_NULL, &i), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &i), MPI_ERR_ARG, "status");
    EXPECT(MPI_Get_elements_x(&st, MPI_DATATYPE_NULL, &c), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Status_set_elements_x(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG, "status");
    EXPECT(MPI_Type_get_envelope(MPI_DATATYPE_NULL, &i, &i, &i, &i), MPI_ERR_TYPE, "datatype");
    int I[4];
    MPI_Aint A[4];
    MPI_Datatype T[4], v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    EXPECT(MPI_Type_get_contents(v, 2, 0, 1, I, A, T), MPI_ERR_ARG, "max_integers");
    EXPECT(MPI_Type_get_contents(v, 3, 0, 0, I, A, T), MPI_ERR_ARG, "max_datatypes");
    EXPECT(MPI_Type_get_contents(MPI_INT, 3, 3, 3, I, A, T), MPI_ERR_TYPE, "named");
    MPI_Type_free(&v);
}

static void packing(void)
{
    int data[8] = {0}, pos = 0, size;
    char buf[16];
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v); /* not committed */
    EXPECT(MPI_Pack(data, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, "committed");
    EXPECT(MPI_Unpack(buf, sizeof buf, &pos, data, 1, v, MPI_COMM_WORLD), MPI_ERR_TYPE, "committed");
    MPI_Type_commit(&v);
    EXPECT(MPI_Pack(data, -1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT, "incount");
    EXPECT(MPI_Unpack(buf, sizeof buf, &pos, data, -1, v, MPI_COMM_WORLD), MPI_ERR_COUNT, "outcount");
    EXPECT(MPI_Pack(data, 1, MPI_DATATYPE_NULL, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE,
           "MPI_DATATYPE_NULL");
    EXPECT(MPI_Pack(data, 3, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "outsize");
    CHECK(pos == 0, "a failed pack moved the position");
    pos = 12;
    EXPECT(MPI_Pack(data, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "position");
    pos = 20;
    EXPECT(MPI_Pack(data, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_ARG, "position");
    pos = 0;
    EXPECT(MPI_Pack(data, 1, v, buf, sizeof buf, NULL, MPI_COMM_WORLD), MPI_ERR_ARG, "position");
    EXPECT(MPI_Pack(data, 1, v, buf, sizeof buf, &pos, MPI_COMM_NULL), MPI_ERR_COMM, "comm");
    EXPECT(MPI_Unpack(buf, 4, &pos, data, 1, v, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "insize");
    EXPECT(MPI_Pack_size(-1, v, MPI_COMM_WORLD, &size), MPI_ERR_COUNT, "incount");
    EXPECT(MPI_Pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &size), MPI_ERR_TYPE, "datatype");
    EXPECT(MPI_Pack_size(1, v, MPI_COMM_NULL, &size), MPI_ERR_COMM, "comm");
    MPI_Type_free(&v);
}

static void communication(void)
{
    int data[8] = {0}, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype v;
    MPI_Request r;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v); /* not committed */
    EXPECT(MPI_Send(data, 1, v, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "committed");
    EXPECT(MPI_Isend(data, 1, v, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE, "committed");
    EXPECT(MPI_Recv(data, 1, v, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "committed");
    EXPECT(MPI_Send(data, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    MPI_Type_commit(&v);
    EXPECT(MPI_Send(data, -1, v, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "count");
    EXPECT(MPI_Irecv(data, -2, v, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT, "count");
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    constructors();
    arrays();
    inquiry();
    packing();
    communication();
    printf("dt_errors: ok\n");
    MPI_Finalize();
    return 0;
}
