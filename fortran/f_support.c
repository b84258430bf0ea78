/*
 * f_support.c: the Fortran sentinels (defined here, shared with the common
 * blocks of mpif.h and the mpi module by symbol name) and the conversions
 * the Fortran bindings share: buffers, statuses, strings.
 */
#include "f_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(MPI_Status) == TIDE_F_STATUS_SIZE * sizeof(MPI_Fint),
               "MPI_STATUS_SIZE of mpif.h must match MPI_Status");
_Static_assert(sizeof(MPI_Comm) == sizeof(MPI_Fint), "handles are Fortran integers");

/* aligned as gfortran aligns the common blocks (mpi_f08's object in this
 * library declares them too) */
#define SENTINEL _Alignas(16)
SENTINEL MPI_Fint tide_f_bottom_[1];
SENTINEL MPI_Fint tide_f_in_place_[1];
SENTINEL MPI_Fint tide_f_status_ignore_[TIDE_F_STATUS_SIZE];
SENTINEL MPI_Fint tide_f_statuses_ignore_[TIDE_F_STATUS_SIZE];
SENTINEL MPI_Fint tide_f_errcodes_ignore_[1];
SENTINEL MPI_Fint tide_f_unweighted_[1];
SENTINEL MPI_Fint tide_f_weights_empty_[1];
SENTINEL char tide_f_argv_null_[1];
SENTINEL char tide_f_argvs_null_[1];

/* C's MPI_F08_STATUS_IGNORE and MPI_F08_STATUSES_IGNORE (and MPI_F_...)
 * are the addresses of the Fortran MPI_STATUS_IGNORE and
 * MPI_STATUSES_IGNORE (MPI-3.1 17.2.5): set when this library is loaded. */
__attribute__((constructor)) static void f08_status_sentinels(void)
{
    MPI_F08_STATUS_IGNORE = (MPI_F08_status *)tide_f_status_ignore_;
    MPI_F08_STATUSES_IGNORE = (MPI_F08_status *)tide_f_statuses_ignore_;
    MPI_F_STATUS_IGNORE = tide_f_status_ignore_;
    MPI_F_STATUSES_IGNORE = tide_f_statuses_ignore_;
}

void *tide_f_buf(void *p)
{
    if (p == (void *)tide_f_bottom_)
        return MPI_BOTTOM;
    if (p == (void *)tide_f_in_place_)
        return MPI_IN_PLACE;
    return p;
}

int *tide_f_errcodes(MPI_Fint *p)
{
    return p == tide_f_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : p;
}

int *tide_f_weights(MPI_Fint *p)
{
    if (p == tide_f_unweighted_)
        return MPI_UNWEIGHTED;
    if (p == tide_f_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return p;
}

int tide_f_is_status_ignore(const MPI_Fint *p)
{
    return p == tide_f_status_ignore_ || p == tide_f_statuses_ignore_;
}

/* A C copy of a Fortran array of statuses (NULL for MPI_STATUSES_IGNORE);
 * tide_f_statuses_out copies it back and frees it. The copy starts as the
 * statuses given: the fields a call does not set (MPI_ERROR unless it
 * returns MPI_ERR_IN_STATUS, MPI-4.0 3.7.5) come back unchanged. */
MPI_Status *tide_f_statuses_in(const MPI_Fint *f, int count)
{
    if (tide_f_is_status_ignore(f))
        return MPI_STATUSES_IGNORE;
    MPI_Status *c = calloc(count > 0 ? (size_t)count : 1, sizeof(MPI_Status));
    if (c)
        for (int i = 0; i < count; i++)
            memcpy(&c[i], f + (size_t)i * TIDE_F_STATUS_SIZE, sizeof c[i]);
    return c;
}

void tide_f_statuses_out(MPI_Status *c, MPI_Fint *f, int count)
{
    if (c == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < count; i++)
        memcpy(f + (size_t)i * TIDE_F_STATUS_SIZE, &c[i], sizeof c[i]);
    free(c);
}

/* A Fortran string without its trailing blanks, NUL terminated (malloc'd). */
char *tide_f_cstr(const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    size_t start = 0;
    while (start < len && f[start] == ' ')
        start++;
    char *c = malloc(len - start + 1);
    if (!c)
        return NULL;
    memcpy(c, f + start, len - start);
    c[len - start] = '\0';
    return c;
}

/* A C string into a Fortran string of length len, blank padded. */
void tide_f_fstr(const char *c, char *f, size_t len)
{
    if (!c)
        return;
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

/* MPI-1 displacements given as default INTEGERs, as MPI_Aint (malloc'd). */
MPI_Aint *tide_f_fints_to_aints(const MPI_Fint *f, int n)
{
    if (n <= 0 || !f)
        return NULL;
    MPI_Aint *a = malloc((size_t)n * sizeof *a);
    if (a)
        for (int i = 0; i < n; i++)
            a[i] = f[i];
    return a;
}

/* An address or extent into a default INTEGER (MPI_ADDRESS,
 * MPI_TYPE_EXTENT, MPI_TYPE_LB, MPI_TYPE_UB). One that does not fit is an
 * MPI_ERR_ARG error raised on MPI_COMM_WORLD, as the library raises errors
 * not tied to an object, with a message naming the call and the argument
 * (an error code made for each call the first time: the library's own
 * messages are not reachable from here). */
int tide_f_aint_to_fint(MPI_Aint v, MPI_Fint *f, const char *fn, const char *arg)
{
    if (v >= INT32_MIN && v <= INT32_MAX) {
        *f = (MPI_Fint)v;
        return MPI_SUCCESS;
    }
    static const char *fns[8];
    static int codes[8];
    int code = MPI_ERR_ARG;
    for (int i = 0; i < 8; i++) {
        if (fns[i] == fn) {
            code = codes[i];
            break;
        }
        if (!fns[i]) {
            char msg[MPI_MAX_ERROR_STRING];
            snprintf(msg, sizeof msg, "%s: the value does not fit in a default INTEGER "
                     "(argument %s); the MPI-2 call takes INTEGER(KIND=MPI_ADDRESS_KIND)", fn, arg);
            if (MPI_Add_error_code(MPI_ERR_ARG, &code) == MPI_SUCCESS &&
                MPI_Add_error_string(code, msg) == MPI_SUCCESS) {
                fns[i] = fn;
                codes[i] = code;
            } else {
                code = MPI_ERR_ARG;
            }
            break;
        }
    }
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    return code;
}
