/*
 * pt2pt_large.c: the MPI-4.0 large-count forms of the point-to-point
 * functions (MPI_Send_c ... MPI_Buffer_detach_c). Counts are MPI_Count
 * all the way down: they share the int forms' bodies (pt2pt_api.h), whose
 * requests and protocol count in MPI_Count and bytes in size_t.
 */
#include "runtime/api.h"
#include "pt2pt/bsend.h"
#include "pt2pt/pt2pt_api.h"
#include "pt2pt/request.h"

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Send_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_STANDARD);
}
TIDE_ALIAS(MPI_Send_c)

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Ssend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_SYNC);
}
TIDE_ALIAS(MPI_Ssend_c)

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_READY);
}
TIDE_ALIAS(MPI_Rsend_c)

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    TIDE_API_ENTER();
    return tide_send_api("MPI_Bsend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_BUFFERED);
}
TIDE_ALIAS(MPI_Bsend_c)

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Isend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_STANDARD, request);
}
TIDE_ALIAS(MPI_Isend_c)

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Issend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_SYNC, request);
}
TIDE_ALIAS(MPI_Issend_c)

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_READY, request);
}
TIDE_ALIAS(MPI_Irsend_c)

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isend_api("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, TIDE_MODE_BUFFERED, request);
}
TIDE_ALIAS(MPI_Ibsend_c)

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_recv_api("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}
TIDE_ALIAS(MPI_Recv_c)

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_irecv_api("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}
TIDE_ALIAS(MPI_Irecv_c)

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_sendrecv_api("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
}
TIDE_ALIAS(MPI_Sendrecv_c)

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_sendrecv_replace_api("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                                     recvtag, comm, status);
}
TIDE_ALIAS(MPI_Sendrecv_replace_c)

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isendrecv_api("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                              recvtype, source, recvtag, comm, request);
}
TIDE_ALIAS(MPI_Isendrecv_c)

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_isendrecv_replace_api("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                                      recvtag, comm, request);
}
TIDE_ALIAS(MPI_Isendrecv_replace_c)

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Send_init_c", TIDE_REQ_SEND, TIDE_MODE_STANDARD, buf, count, datatype, dest,
                               tag, comm, request);
}
TIDE_ALIAS(MPI_Send_init_c)

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Bsend_init_c", TIDE_REQ_SEND, TIDE_MODE_BUFFERED, buf, count, datatype, dest,
                               tag, comm, request);
}
TIDE_ALIAS(MPI_Bsend_init_c)

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Ssend_init_c", TIDE_REQ_SEND, TIDE_MODE_SYNC, buf, count, datatype, dest, tag,
                               comm, request);
}
TIDE_ALIAS(MPI_Ssend_init_c)

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Rsend_init_c", TIDE_REQ_SEND, TIDE_MODE_READY, buf, count, datatype, dest, tag,
                               comm, request);
}
TIDE_ALIAS(MPI_Rsend_init_c)

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_pt2pt_init_api("MPI_Recv_init_c", TIDE_REQ_RECV, TIDE_MODE_STANDARD, buf, count, datatype, source,
                               tag, comm, request);
}
TIDE_ALIAS(MPI_Recv_init_c)

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    TIDE_API_ENTER();
    return tide_mrecv_api("MPI_Mrecv_c", buf, count, datatype, message, status);
}
TIDE_ALIAS(MPI_Mrecv_c)

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    TIDE_API_ENTER();
    return tide_imrecv_api("MPI_Imrecv_c", buf, count, datatype, message, request);
}
TIDE_ALIAS(MPI_Imrecv_c)

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    TIDE_API_ENTER();
    return tide_buffer_attach("MPI_Buffer_attach_c", buffer, size);
}
TIDE_ALIAS(MPI_Buffer_attach_c)

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    TIDE_API_ENTER();
    return tide_buffer_detach("MPI_Buffer_detach_c", buffer_addr, size);
}
TIDE_ALIAS(MPI_Buffer_detach_c)
