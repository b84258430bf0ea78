/*
 * f_callbacks.c: generalized requests and user data representations with
 * callbacks written in Fortran (MPI_Grequest_start, MPI_Register_datarep),
 * for mpif.h, `use mpi` and `use mpi_f08` alike. A Fortran callback takes
 * every argument by reference, the extra state as an
 * INTEGER(KIND=MPI_ADDRESS_KIND), a status as MPI_STATUS_SIZE integers,
 * ierror last; the C function gets C callbacks that call it, with a record
 * of the Fortran procedures and extra state as their extra state. mpi_f08's
 * interfaces (TYPE(MPI_Status), LOGICAL, TYPE(C_PTR) buffers by value) have
 * the same calling convention. Also MPI_CONVERSION_FN_NULL as a Fortran
 * procedure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "f_support.h"

/* ---- generalized requests ---- */

typedef void f_query_fn(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void f_free_fn(MPI_Aint *extra, MPI_Fint *ierr);
typedef void f_cancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierr);

/* freed by the free callback, which MPI calls once per request */
struct fgrequest {
    f_query_fn *query;
    f_free_fn *free;
    f_cancel_fn *cancel;
    MPI_Aint extra;
};

static int grequest_query(void *extra, MPI_Status *status)
{
    struct fgrequest *g = extra;
    MPI_Fint f_status[TIDE_F_STATUS_SIZE], ierr = MPI_SUCCESS;
    MPI_Status_c2f(status, f_status);
    g->query(&g->extra, f_status, &ierr);
    MPI_Status_f2c(f_status, status);
    return ierr;
}

static int grequest_free(void *extra)
{
    struct fgrequest *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int grequest_cancel(void *extra, int complete)
{
    struct fgrequest *g = extra;
    MPI_Fint f_complete = complete != 0, ierr = MPI_SUCCESS;
    g->cancel(&g->extra, &f_complete, &ierr);
    return ierr;
}

ALIAS2(mpi_grequest_start, f_query_fn *query, f_free_fn *free_fn, f_cancel_fn *cancel, MPI_Aint *extra,
       MPI_Fint *request, MPI_Fint *ierr)
void mpi_grequest_start_(f_query_fn *query, f_free_fn *free_fn, f_cancel_fn *cancel, MPI_Aint *extra,
                         MPI_Fint *request, MPI_Fint *ierr)
{
    struct fgrequest *g = malloc(sizeof *g);
    MPI_Request c_req = MPI_REQUEST_NULL;
    int rc = MPI_ERR_NO_MEM;
    if (g) {
        *g = (struct fgrequest){query, free_fn, cancel, *extra};
        rc = MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, g, &c_req);
        if (rc != MPI_SUCCESS)
            free(g);
    }
    *request = MPI_Request_c2f(c_req);
    if (ierr)
        *ierr = rc;
}

/* ---- data representations ---- */

typedef void f_conversion_fn(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierr);
typedef void f_extent_fn(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra, MPI_Fint *ierr);

/* MPI_CONVERSION_FN_NULL as a Fortran procedure: given to
 * MPI_Register_datarep, it stands for the C one (never called itself) */
ALIAS2(mpi_conversion_fn_null, void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
       MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierr)
void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierr)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra;
    *ierr = MPI_SUCCESS;
}

/* a registered representation lives as long as the program; the list
 * keeps every record reachable */
struct fdatarep {
    f_conversion_fn *read;
    f_conversion_fn *write;
    f_extent_fn *extent;
    MPI_Aint extra;
    struct fdatarep *next;
};
static struct fdatarep *datareps;

static int convert(f_conversion_fn *fn, void *userbuf, MPI_Datatype type, int count, void *filebuf,
                   MPI_Offset position, struct fdatarep *d)
{
    MPI_Fint f_type = MPI_Type_c2f(type), f_count = count, ierr = MPI_SUCCESS;
    fn(userbuf, &f_type, &f_count, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int datarep_read(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position,
                        void *extra)
{
    struct fdatarep *d = extra;
    return convert(d->read, userbuf, type, count, filebuf, position, d);
}

static int datarep_write(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position,
                         void *extra)
{
    struct fdatarep *d = extra;
    return convert(d->write, userbuf, type, count, filebuf, position, d);
}

static int datarep_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    struct fdatarep *d = extra;
    MPI_Fint f_type = MPI_Type_c2f(type), ierr = MPI_SUCCESS;
    d->extent(&f_type, extent, &d->extra, &ierr);
    return ierr;
}

ALIAS2(mpi_register_datarep, char *datarep, f_conversion_fn *read, f_conversion_fn *write, f_extent_fn *extent,
       MPI_Aint *extra, MPI_Fint *ierr, size_t datarep_len)
void mpi_register_datarep_(char *datarep, f_conversion_fn *read, f_conversion_fn *write, f_extent_fn *extent,
                           MPI_Aint *extra, MPI_Fint *ierr, size_t datarep_len)
{
    struct fdatarep *d = malloc(sizeof *d);
    char *name = tide_f_cstr(datarep, datarep_len);
    int rc = MPI_ERR_NO_MEM;
    if (d && name) {
        *d = (struct fdatarep){read, write, extent, *extra, datareps};
        rc = MPI_Register_datarep(
            name, read == mpi_conversion_fn_null_ ? MPI_CONVERSION_FN_NULL : datarep_read,
            write == mpi_conversion_fn_null_ ? MPI_CONVERSION_FN_NULL : datarep_write, datarep_extent, d);
        if (rc == MPI_SUCCESS)
            datareps = d;
        else
            free(d);
    } else {
        free(d);
    }
    free(name);
    if (ierr)
        *ierr = rc;
}
