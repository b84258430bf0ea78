/*
 * abi_mark.c: the symbol that marks this libmpi as Tide's. mpi.h makes
 * every object that includes it refer to tide_mpi_abi_1, so a program
 * compiled with Tide's header links and runs only with Tide's library,
 * never with another MPI's libmpi found first on a search path.
 */
#include "mpi.h"

__attribute__((visibility("default"))) const int tide_mpi_abi_1 = 1;
