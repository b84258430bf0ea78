/*
 * modules.h: the order in which libmpi's layers start and stop. Each layer
 * (datatypes, operations, transports and point-to-point, collectives,
 * dynamic processes) has init/finalize functions called from here, so
 * MPI_Init and MPI_Finalize read as a list.
 */
#ifndef TIDE_MODULES_H
#define TIDE_MODULES_H

#include <stddef.h>

/* Before MPI_COMM_WORLD exists. */
int tide_modules_init(char *err, size_t errlen);
/* Business cards: put, commit, fence. After MPI_COMM_WORLD exists. */
int tide_modules_wireup(char *err, size_t errlen);
/* Deliver everything still pending (MPI_Finalize, before the fence). */
void tide_modules_quiesce(void);
void tide_modules_finalize(void);

#endif
