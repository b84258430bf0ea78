/*
 * comm_inquiry.c: the simple communicator inquiries of MPI-2.2 chapter 6:
 * MPI_Comm_compare, MPI_Comm_test_inter, MPI_Comm_remote_size, and
 * communicator names (MPI_Comm_set_name / MPI_Comm_get_name; the
 * predefined communicators are named MPI_COMM_WORLD and MPI_COMM_SELF).
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/group.h"

#include <string.h>

/* Defined in group_ops.c; belongs in comm/group.h. */

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    TIDE_API_ENTER();
    struct tide_comm *c1 = tide_comm_get(comm1), *c2 = tide_comm_get(comm2);
    if (!c1)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_compare: invalid communicator%s (argument comm1)",
                        comm1 == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!c2)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_compare: invalid communicator%s (argument comm2)",
                        comm2 == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!result)
        return TIDE_ERR_COMM(c1, MPI_ERR_ARG, "MPI_Comm_compare: result must not be NULL");
    if (c1 == c2 || (c1->ep && c1->ep == c2->ep)) { /* endpoints of one communicator */
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (c1->is_inter != c2->is_inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    /* different contexts: at best congruent (same groups, same order) */
    int local = tide_group_compare(c1->group, c2->group);
    int remote = MPI_IDENT;
    if (c1->is_inter)
        remote = tide_group_compare(c1->remote_group, c2->remote_group);
    if (local == MPI_IDENT && remote == MPI_IDENT)
        *result = MPI_CONGRUENT;
    else if (local != MPI_UNEQUAL && remote != MPI_UNEQUAL)
        *result = MPI_SIMILAR;
    else
        *result = MPI_UNEQUAL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_compare)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_test_inter: invalid communicator (argument comm)");
    if (!flag)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_test_inter: flag must not be NULL");
    *flag = c->is_inter ? 1 : 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_test_inter)

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_remote_size: invalid communicator (argument comm)");
    if (!c->is_inter)
        return TIDE_ERR_COMM(c, MPI_ERR_COMM,
                             "MPI_Comm_remote_size: %s is an intracommunicator; only intercommunicators "
                             "have a remote group (argument comm)",
                             c->name[0] ? c->name : "the communicator");
    if (!size)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_remote_size: size must not be NULL");
    *size = c->remote_size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_remote_size)

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_set_name: invalid communicator (argument comm)");
    if (!comm_name)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_set_name: comm_name must not be NULL");
    /* longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters */
    size_t n = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(c->name, comm_name, n);
    c->name[n] = '\0';
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_get_name: invalid communicator (argument comm)");
    if (!comm_name || !resultlen)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_get_name: comm_name and resultlen must not be NULL");
    size_t n = strnlen(c->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, c->name, n);
    comm_name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_get_name)
