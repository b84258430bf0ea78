/*
 * errors.h: error codes, classes and messages.
 *
 * A failing call returns its error class itself (as Open MPI does; ULFM
 * codes compare the value with MPIX_ERR_PROC_FAILED), and a message naming
 * the function and the argument: tide_err(class, fmt, ...) records the
 * message as the string of that class until the next error of the class
 * (MPI_Error_string of the value just returned gives it) and returns the
 * class. tide_raise_* then invokes the error handler of the object the
 * call was made on.
 */
#ifndef TIDE_ERRORS_H
#define TIDE_ERRORS_H

#include "mpi.h"

#define TIDE_MAX_ERROR_CLASS 1023

struct tide_comm;
struct tide_win;
struct tide_file;

/* The error of `errclass` with a formatted message: returns errclass. */
int tide_err(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The class of a code, or -1 if it is not a valid code. */
int tide_error_class_of(int code);
const char *tide_error_class_string(int errclass);
/* Copy the message of code into buf (MPI_MAX_ERROR_STRING). 0 or -1. */
int tide_error_message(int code, char *buf, int *len);

/* Invoke the error handler of an object with code; returns code (if the
 * handler returns). comm may be NULL: MPI_COMM_WORLD's handler is used (or,
 * before MPI_Init / after MPI_Finalize, the error is printed and returned). */
int tide_raise_comm(struct tide_comm *comm, int code);
int tide_raise_win(struct tide_win *win, int code);
int tide_raise_file(struct tide_file *file, int code);
/* The value of MPI_LASTUSEDCODE. */
int tide_last_used_code(void);
void tide_errors_finalize(void);
/* Errors not tied to an object (MPI_COMM_WORLD's handler). */
int tide_raise(int code);

#define TIDE_ERR_COMM(comm, cls, ...) tide_raise_comm((comm), tide_err((cls), __VA_ARGS__))
#define TIDE_ERR(cls, ...) tide_raise(tide_err((cls), __VA_ARGS__))

#endif
