/*
 * f_support.h: helpers shared by the generated and hand-written Fortran
 * bindings: Fortran sentinels recognised by address, status arrays,
 * Fortran strings (blank padded, hidden length) to and from C strings, and
 * the choice buffers of mpi_f08.
 */
#ifndef TIDE_F_SUPPORT_H
#define TIDE_F_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include "mpi.h"

#define TIDE_F_STATUS_SIZE 6

/* The Fortran sentinels: common blocks of mpif.h and of `use mpi`. */
extern MPI_Fint tide_f_bottom_[1];
extern MPI_Fint tide_f_in_place_[1];
extern MPI_Fint tide_f_status_ignore_[TIDE_F_STATUS_SIZE];
extern MPI_Fint tide_f_statuses_ignore_[TIDE_F_STATUS_SIZE];
extern MPI_Fint tide_f_errcodes_ignore_[1];
extern MPI_Fint tide_f_unweighted_[1];
extern MPI_Fint tide_f_weights_empty_[1];
extern char tide_f_argv_null_[1];
extern char tide_f_argvs_null_[1];

void *tide_f_buf(void *p);
int *tide_f_errcodes(MPI_Fint *p);
int *tide_f_weights(MPI_Fint *p);
int tide_f_is_status_ignore(const MPI_Fint *p);
MPI_Status *tide_f_statuses_in(const MPI_Fint *f, int count);
void tide_f_statuses_out(MPI_Status *c, MPI_Fint *f, int count);
char *tide_f_cstr(const char *f, size_t len);
void tide_f_fstr(const char *c, char *f, size_t len);

/* The choice buffers of mpi_f08 (f_choice.c), called from its procedures. */
struct CFI_cdesc_t;
void tide_f08_choice(struct CFI_cdesc_t *b0, struct CFI_cdesc_t *b1, struct CFI_cdesc_t *b2,
                     const int *nbuf, const int *how, const int *written, int64_t *count,
                     MPI_Fint *datatype, intptr_t addr[3], MPI_Fint *made, intptr_t *copies,
                     MPI_Fint *err);
void tide_f08_choice_free(const MPI_Fint *made, const intptr_t *copies, const MPI_Fint *rc);
void tide_f08_choice_error(int kind, MPI_Fint handle, MPI_Fint code);
void tide_f08_sync_reg(struct CFI_cdesc_t *buf);

/* A Fortran binding's two link names (name_ and name__), declared. */
#define ALIAS2(name, ...) \
    void name##_(__VA_ARGS__); \
    void name##__(__VA_ARGS__) __attribute__((alias(#name "_")));

#endif
