/*
 * abort.h: ending the whole job from inside a rank (MPI_Abort and
 * MPI_ERRORS_ARE_FATAL), through the runtime so every rank goes.
 */
#ifndef TIDE_ABORT_H
#define TIDE_ABORT_H

void tide_abort_job(int exit_code, const char *message) __attribute__((noreturn));

#endif
