/*
 * stub.h: what a not-yet-implemented MPI function does (stubs.c is
 * generated): it reports MPI_ERR_UNSUPPORTED_OPERATION through the error
 * handler with a message naming itself. docs/STATUS.md lists them.
 */
#ifndef TIDE_STUB_H
#define TIDE_STUB_H

int tide_unsupported(const char *fn);

#endif
