/*
 * hex.h: lower-case hex encoding of byte strings (secrets, nonces,
 * fingerprints) for text protocols and files.
 */
#ifndef TIDE_HEX_H
#define TIDE_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Write 2*len hex digits and a NUL. */
void tide_hex(const uint8_t *p, size_t len, char *out);
/* Decode s; the number of bytes, or -1 if s is not even-length hex or
 * does not fit max. */
int tide_unhex(const char *s, uint8_t *out, size_t max);

#endif
