/*
 * ctllisten.h: a TCP listener for control links from node daemons of other
 * hosts. Each connection must pass the ctlauth.h challenge within a
 * deadline before anything else is read from it; connections still
 * authenticating are capped (the oldest is dropped). An authenticated
 * connection is handed to the owner with the node it proved to be and
 * the keys that encrypt it from then on.
 */
#ifndef TIDE_CTLLISTEN_H
#define TIDE_CTLLISTEN_H

#include <stdint.h>
#include <stddef.h>
#include "ctlauth.h"

struct event_base;
struct tide_ctllisten;

/* The owner takes fd and the link's keys, which every later frame must be
 * sealed with (tide_channel_new_sealed), and returns 0; or refuses them
 * (returns -1: the listener closes fd and frees crypt), e.g. for a node
 * that is not expected or already connected. */
typedef int (*tide_ctllisten_fn)(int fd, uint32_t node, struct tide_ctlcrypt *crypt, void *arg);

/* Listen on the addresses `include` selects (the if_include setting;
 * empty: every non-loopback interface, loopback if there is none), each
 * bound on its own with a port chosen by the system; nowhere else. timeout_s and max_pending bound peers that
 * have not authenticated. NULL with a reason in err on failure. */
struct tide_ctllisten *tide_ctllisten_new(struct event_base *base, const uint8_t secret[TIDE_CTL_SECRET_LEN],
                                          const char *include, int timeout_s, int max_pending,
                                          tide_ctllisten_fn fn, void *arg, char *err, size_t errlen);
/* "ip:port,ip:port": where daemons should connect, in order of preference. */
const char *tide_ctllisten_addresses(const struct tide_ctllisten *l);
/* Connections dropped so far for failing or not finishing authentication. */
unsigned long tide_ctllisten_rejected(const struct tide_ctllisten *l);
void tide_ctllisten_free(struct tide_ctllisten *l);

#endif
