/*
 * coll_api.h: the bodies of the collective MPI functions, with MPI_Count
 * counts and MPI_Aint displacements, shared by the int forms (each in
 * its algorithm's file, which widens the int arrays where they are
 * significant) and the MPI-4.0 large-count forms (coll_large.c). Each
 * checks its arguments, raises errors on the communicator (fn names the
 * MPI function) and returns the code; mode says whether it is the
 * blocking, the I- or the _init form (the last two give request the
 * handle).
 */
#ifndef TIDE_COLL_API_H
#define TIDE_COLL_API_H

#include <stdbool.h>

#include "mpi.h"
#include "coll/coll_args.h"

int tide_bcast_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request, enum tide_coll_mode mode);
/* Gather (vform false: rcount) and Gatherv (rcounts, displs). */
int tide_gather_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                    MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rtype, int root,
                    MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode);
int tide_scatter_api(const char *fn, const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                     const MPI_Aint *displs, MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype,
                     int root, MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode);
int tide_allgather_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                       MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rtype,
                       MPI_Comm comm, bool vform, MPI_Request *request, enum tide_coll_mode mode);
int tide_alltoall_api(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                      MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode);
/* Alltoallv (element displacements, stype/rtype) and Alltoallw (wform:
 * byte displacements, stypes/rtypes). */
int tide_alltoallv_api(const char *fn, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                       MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                       const MPI_Aint *rdispls, MPI_Datatype rtype, const MPI_Datatype *rtypes, MPI_Comm comm,
                       bool wform, MPI_Request *request, enum tide_coll_mode mode);
int tide_reduce_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode);
int tide_allreduce_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode);
/* Reduce_scatter_block (vform false: rcount) and Reduce_scatter (rcounts). */
int tide_reduce_scatter_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count rcount,
                            const MPI_Count *rcounts, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool vform,
                            MPI_Request *request, enum tide_coll_mode mode);
/* Scan, or Exscan (ex). */
int tide_scan_api(const char *fn, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, bool ex, MPI_Request *request, enum tide_coll_mode mode);
/* The neighbourhood collectives; form: 0 allgather, 1 allgatherv, 2
 * alltoall, 3 alltoallv, 4 alltoallw (byte displacements, stypes/rtypes). */
enum { TIDE_NB_ALLGATHER, TIDE_NB_ALLGATHERV, TIDE_NB_ALLTOALL, TIDE_NB_ALLTOALLV, TIDE_NB_ALLTOALLW };
int tide_neighbor_api(const char *fn, int form, const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                      const MPI_Aint *sdispls, MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf,
                      MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls, MPI_Datatype rtype,
                      const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request, enum tide_coll_mode mode);

#endif
