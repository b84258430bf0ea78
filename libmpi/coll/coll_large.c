/*
 * coll_large.c: the MPI-4.0 large-count forms of the collectives
 * (MPI_Bcast_c ... MPI_Ineighbor_alltoallw_c, MPI_Reduce_local_c, and the
 * persistent MPI_Bcast_init_c ... MPI_Neighbor_alltoallw_init_c).
 * They share the int forms' bodies (coll_api.h), which count in MPI_Count
 * and place blocks at MPI_Aint displacements down to the schedules, so
 * nothing is narrowed on the way.
 */
#include "runtime/api.h"
#include "coll/coll_api.h"
#include "coll/pcoll.h"
#include "op/op.h"

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_bcast_api("MPI_Bcast_c", buffer, count, datatype, root, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Bcast_c)

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_gather_api("MPI_Gather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                           comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Gather_c)

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_gather_api("MPI_Gatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype,
                           root, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Gatherv_c)

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_scatter_api("MPI_Scatter_c", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scatter_c)

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_scatter_api("MPI_Scatterv_c", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scatterv_c)

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_allgather_api("MPI_Allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                              comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allgather_c)

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_allgather_api("MPI_Allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                              recvtype, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allgatherv_c)

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_alltoall_api("MPI_Alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                             TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoall_c)

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_alltoallv_api("MPI_Alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, NULL, recvbuf, recvcounts,
                              rdispls, recvtype, NULL, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoallv_c)

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_alltoallv_api("MPI_Alltoallw_c", sendbuf, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf,
                              recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Alltoallw_c)

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_reduce_api("MPI_Reduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce_c)

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_allreduce_api("MPI_Allreduce_c", sendbuf, recvbuf, count, datatype, op, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Allreduce_c)

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    TIDE_API_ENTER();
    return tide_reduce_local_api("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
TIDE_ALIAS(MPI_Reduce_local_c)

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_reduce_scatter_api("MPI_Reduce_scatter_block_c", sendbuf, recvbuf, recvcount, NULL, datatype, op, comm,
                                   false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce_scatter_block_c)

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_reduce_scatter_api("MPI_Reduce_scatter_c", sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, true,
                                   NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Reduce_scatter_c)

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_scan_api("MPI_Scan_c", sendbuf, recvbuf, count, datatype, op, comm, false, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Scan_c)

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_scan_api("MPI_Exscan_c", sendbuf, recvbuf, count, datatype, op, comm, true, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Exscan_c)

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_bcast_api("MPI_Ibcast_c", buffer, count, datatype, root, comm, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ibcast_c)

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_gather_api("MPI_Igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                           root, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Igather_c)

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_gather_api("MPI_Igatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype,
                           root, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Igatherv_c)

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_scatter_api("MPI_Iscatter_c", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscatter_c)

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_scatter_api("MPI_Iscatterv_c", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscatterv_c)

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_allgather_api("MPI_Iallgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                              recvtype, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallgather_c)

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_allgather_api("MPI_Iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                              recvtype, comm, true, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallgatherv_c)

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_alltoall_api("MPI_Ialltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoall_c)

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_alltoallv_api("MPI_Ialltoallv_c", sendbuf, sendcounts, sdispls, sendtype, NULL, recvbuf, recvcounts,
                              rdispls, recvtype, NULL, comm, false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoallv_c)

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_alltoallv_api("MPI_Ialltoallw_c", sendbuf, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf,
                              recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, true, request,
                              TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ialltoallw_c)

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_reduce_api("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, request,
                           TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce_c)

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_allreduce_api("MPI_Iallreduce_c", sendbuf, recvbuf, count, datatype, op, comm, request,
                              TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iallreduce_c)

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_reduce_scatter_api("MPI_Ireduce_scatter_block_c", sendbuf, recvbuf, recvcount, NULL, datatype, op, comm,
                                   false, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce_scatter_block_c)

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_reduce_scatter_api("MPI_Ireduce_scatter_c", sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, true,
                                   request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ireduce_scatter_c)

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_scan_api("MPI_Iscan_c", sendbuf, recvbuf, count, datatype, op, comm, false, request,
                         TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iscan_c)

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_scan_api("MPI_Iexscan_c", sendbuf, recvbuf, count, datatype, op, comm, true, request,
                         TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Iexscan_c)

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Neighbor_allgather_c", TIDE_NB_ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_allgather_c)

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Neighbor_allgatherv_c", TIDE_NB_ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_allgatherv_c)

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Neighbor_alltoall_c", TIDE_NB_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoall_c)

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Neighbor_alltoallv_c", TIDE_NB_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype,
                             NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoallv_c)

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Neighbor_alltoallw_c", TIDE_NB_ALLTOALLW, sendbuf, 0, sendcounts, sdispls,
                             MPI_DATATYPE_NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL,
                             recvtypes, comm, NULL, TIDE_COLL_BLOCKING);
}
TIDE_ALIAS(MPI_Neighbor_alltoallw_c)

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Ineighbor_allgather_c", TIDE_NB_ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request,
                             TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_allgather_c)

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Ineighbor_allgatherv_c", TIDE_NB_ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm, request,
                             TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_allgatherv_c)

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Ineighbor_alltoall_c", TIDE_NB_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                             NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request,
                             TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoall_c)

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Ineighbor_alltoallv_c", TIDE_NB_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype,
                             NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, request,
                             TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoallv_c)

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_neighbor_api("MPI_Ineighbor_alltoallw_c", TIDE_NB_ALLTOALLW, sendbuf, 0, sendcounts, sdispls,
                             MPI_DATATYPE_NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL,
                             recvtypes, comm, request, TIDE_COLL_NONBLOCKING);
}
TIDE_ALIAS(MPI_Ineighbor_alltoallw_c)

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Bcast_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_bcast_api(fn, buffer, count, datatype, root, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Bcast_init_c)

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Gather_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_gather_api(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm,
                           false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Gather_init_c)

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Gatherv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_gather_api(fn, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm,
                           true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Gatherv_init_c)

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scatter_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_scatter_api(fn, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scatter_init_c)

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scatterv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_scatter_api(fn, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scatterv_init_c)

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allgather_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_allgather_api(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, false,
                              request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allgather_init_c)

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allgatherv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_allgather_api(fn, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm, true,
                              request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allgatherv_init_c)

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoall_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_alltoall_api(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                             TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoall_init_c)

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoallv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_alltoallv_api(fn, sendbuf, sendcounts, sdispls, sendtype, NULL, recvbuf, recvcounts, rdispls,
                              recvtype, NULL, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoallv_init_c)

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Alltoallw_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_alltoallv_api(fn, sendbuf, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, recvcounts,
                              rdispls, MPI_DATATYPE_NULL, recvtypes, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Alltoallw_init_c)

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_reduce_api(fn, sendbuf, recvbuf, count, datatype, op, root, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_init_c)

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Allreduce_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_allreduce_api(fn, sendbuf, recvbuf, count, datatype, op, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Allreduce_init_c)

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_scatter_block_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_reduce_scatter_api(fn, sendbuf, recvbuf, recvcount, NULL, datatype, op, comm, false, request,
                                   TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_scatter_block_init_c)

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Reduce_scatter_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_reduce_scatter_api(fn, sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, true, request,
                                   TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Reduce_scatter_init_c)

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Scan_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_scan_api(fn, sendbuf, recvbuf, count, datatype, op, comm, false, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Scan_init_c)

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Exscan_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_scan_api(fn, sendbuf, recvbuf, count, datatype, op, comm, true, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Exscan_init_c)

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_allgather_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_neighbor_api(fn, TIDE_NB_ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                             recvcount, NULL, NULL, recvtype, NULL, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_allgather_init_c)

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_allgatherv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_neighbor_api(fn, TIDE_NB_ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0,
                             recvcounts, displs, recvtype, NULL, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_allgatherv_init_c)

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoall_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_neighbor_api(fn, TIDE_NB_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount,
                             NULL, NULL, recvtype, NULL, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoall_init_c)

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoallv_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_neighbor_api(fn, TIDE_NB_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
                             recvcounts, rdispls, recvtype, NULL, comm, request, TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoallv_init_c)

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Neighbor_alltoallw_init_c";
    int rc = tide_pcoll_info(comm, info, fn);
    if (rc)
        return rc;
    return tide_neighbor_api(fn, TIDE_NB_ALLTOALLW, sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                             recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, request,
                             TIDE_COLL_PERSISTENT);
}
TIDE_ALIAS(MPI_Neighbor_alltoallw_init_c)
