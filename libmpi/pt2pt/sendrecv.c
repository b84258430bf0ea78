/*
 * sendrecv.c: MPI_Sendrecv and MPI_Sendrecv_replace. Both post the
 * receive first and then send, so two processes exchanging with each
 * other never deadlock whatever the message sizes.
 */
#include "runtime/api.h"
#include "pt2pt/lean.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/pt2pt_api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <stdlib.h>

int tide_sendrecv_api(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                      int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                      int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *sdt = tide_datatype_get(sendtype), *rdt = tide_datatype_get(recvtype);
    int rc;
    if ((rc = tide_datatype_check(sdt, sendtype, sendcount, fn, "sendtype")) ||
        (rc = tide_datatype_check(rdt, recvtype, recvcount, fn, "recvtype")) ||
        (rc = tide_check_send_rank(c, dest, fn, "dest")) || (rc = tide_check_recv_rank(c, source, fn, "source")) ||
        (rc = tide_check_send_tag(sendtag, fn)) || (rc = tide_check_recv_tag(recvtag, fn)) ||
        (rc = tide_check_buffer(sendbuf, sendcount, sdt, fn)) || (rc = tide_check_buffer(recvbuf, recvcount, rdt, fn)))
        return tide_raise_comm(c, rc);
    struct tide_request *rr, *sr;
    rc = tide_irecv(recvbuf, recvcount, rdt, source, recvtag, c, c->context_id, &rr);
    if (rc)
        return tide_raise_comm(c, rc);
    rc = tide_isend(sendbuf, sendcount, sdt, dest, sendtag, c, c->context_id, TIDE_MODE_STANDARD, &sr);
    if (rc) {
        tide_wait_free(rr, MPI_STATUS_IGNORE);
        return tide_raise_comm(c, rc);
    }
    int se = tide_wait_free(sr, MPI_STATUS_IGNORE);
    int re = tide_wait_free(rr, status);
    rc = re ? re : se;
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                  MPI_Status *status)
{
    if (__builtin_expect(tide_lean_on, 1))
        return tide_lean_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                  recvtag, comm, status);
    return tide_sendrecv_full(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                              recvtag, comm, status);
}
TIDE_ALIAS(MPI_Sendrecv)

int tide_sendrecv_full(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                       MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_sendrecv_api("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
}

int tide_sendrecv_replace_api(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                              int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator (argument comm)", fn);
    struct tide_datatype *dt = tide_datatype_get(datatype);
    int rc;
    if ((rc = tide_datatype_check(dt, datatype, count, fn, "datatype")) ||
        (rc = tide_check_send_rank(c, dest, fn, "dest")) || (rc = tide_check_recv_rank(c, source, fn, "source")) ||
        (rc = tide_check_send_tag(sendtag, fn)) || (rc = tide_check_recv_tag(recvtag, fn)) ||
        (rc = tide_check_buffer(buf, count, dt, fn)))
        return tide_raise_comm(c, rc);
    /* send a packed copy, receive into the buffer */
    size_t bytes = (size_t)count * dt->size;
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: cannot allocate %zu bytes", fn, bytes);
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)count, buf);
    tide_conv_pack(&cv, copy, bytes);
    struct tide_request *rr, *sr;
    rc = tide_irecv(buf, count, dt, source, recvtag, c, c->context_id, &rr);
    if (rc) {
        free(copy);
        return tide_raise_comm(c, rc);
    }
    rc = tide_isend(copy, (MPI_Count)bytes, tide_datatype_get(MPI_PACKED), dest, sendtag, c, c->context_id,
                    TIDE_MODE_STANDARD, &sr);
    if (rc) {
        tide_wait_free(rr, MPI_STATUS_IGNORE);
        free(copy);
        return tide_raise_comm(c, rc);
    }
    int se = tide_wait_free(sr, MPI_STATUS_IGNORE);
    int re = tide_wait_free(rr, status);
    free(copy);
    rc = re ? re : se;
    return rc ? tide_raise_comm(c, rc) : MPI_SUCCESS;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                          int recvtag, MPI_Comm comm, MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_sendrecv_replace_api("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag,
                                     comm, status);
}
TIDE_ALIAS(MPI_Sendrecv_replace)
