/*
 * libmpi.c: the shared library is libmpicore plus the export map
 * (libmpi.map); this file only gives libtool something to compile.
 */
#include "mpi.h"
