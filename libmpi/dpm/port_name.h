/*
 * port_name.h: the text of a port name, and nothing else (no library
 * state), so the parser can be fuzzed alone:
 *
 *   tide-port:v2|<nspace>|<rank>|<32 hex digits: the port's token>|<card>
 *
 * The token is the port's own accept credential (a connection presenting
 * it reaches only the connect/accept conversation); the card says where
 * the owner listens and holds no secret. The parser is strict: lower-case
 * hex of the exact length, a decimal rank of digits only, names of
 * printable characters without '|', a card of "key=value;" items.
 */
#ifndef TIDE_PORT_NAME_H
#define TIDE_PORT_NAME_H

#include <stddef.h>
#include <stdint.h>

#define TIDE_PORT_TOKEN_LEN 16
#define TIDE_PORT_NAME_MAX 1024 /* MPI_MAX_PORT_NAME, counting the NUL */

/* A parsed port name. */
struct tide_port {
    char nspace[256];
    uint32_t rank;
    uint8_t token[TIDE_PORT_TOKEN_LEN];
    char card[1024]; /* the owner's business card */
};

/* Encode into out (len bytes); -1 if it does not fit or a field is not
 * representable. */
int tide_port_name_format(const struct tide_port *p, char *out, size_t len);
/* Parse; -1 if malformed (p is then zeroed). */
int tide_port_name_parse(const char *name, struct tide_port *p);
/* Strict hex: exactly 2n lower- or upper-case hex digits. */
int tide_port_unhex(const char *s, size_t slen, uint8_t *out, size_t n);

#endif
