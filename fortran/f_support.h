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

/* A Fortran binding's link names, declared, for a function defined as
 * name_: name_ and name__ (gfortran's and g77's manglings) are weak, so a
 * profiling tool may define MPI_XXX itself (MPI-4.0 15.2); the profiling
 * names pname_ and pname__ (PMPI_XXX) always reach the binding. */
#define ALIAS2(name, ...) TIDE_F_WEAK_NAMES(void, name, __VA_ARGS__)
#define TIDE_F_WEAK_NAMES(ret, name, ...) \
    ret name##_(__VA_ARGS__) __attribute__((weak)); \
    ret name##__(__VA_ARGS__) __attribute__((weak, alias(#name "_"))); \
    ret p##name##_(__VA_ARGS__) __attribute__((alias(#name "_"))); \
    ret p##name##__(__VA_ARGS__) __attribute__((alias(#name "_")));
/* The same for a function defined as pname_ (the generated wrappers). */
#define TIDE_F_NAMES(name, ...) \
    void p##name##_(__VA_ARGS__); \
    void p##name##__(__VA_ARGS__) __attribute__((alias("p" #name "_"))); \
    void name##_(__VA_ARGS__) __attribute__((weak, alias("p" #name "_"))); \
    void name##__(__VA_ARGS__) __attribute__((weak, alias("p" #name "_")));

/* The value Fortran gets for an attribute (not a predefined one) C gives
 * as p (f_attr.c: a value set from Fortran is the address of an MPI_Aint
 * holding it, MPI-4.0 19.3.7). */
MPI_Aint tide_f_attr_value(void *p);

/* MPI-1 addresses and extents as default INTEGERs (gen-bindings.py's
 * MPI1_FINT_AINT): n of them as MPI_Aint (malloc'd; NULL if n <= 0 or out
 * of memory), and one back, an MPI_ERR_ARG error naming fn and arg when it
 * does not fit (the code returned). */
MPI_Aint *tide_f_fints_to_aints(const MPI_Fint *f, int n);
int tide_f_aint_to_fint(MPI_Aint v, MPI_Fint *f, const char *fn, const char *arg);

#endif
