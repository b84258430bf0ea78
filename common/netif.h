/*
 * netif.h: choosing network interfaces by the if_include setting (a comma
 * list of interface names, addresses and CIDR blocks), for the listeners
 * of rank transports and of control links.
 */
#ifndef TIDE_NETIF_H
#define TIDE_NETIF_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

/* Does interface (name, addr) match one item: a name, an address, or a CIDR block? */
bool tide_netif_matches(const char *item, const char *name, struct in_addr addr);
/* Does it match any item of a comma-separated list? */
bool tide_netif_included(const char *list, const char *name, struct in_addr addr);
/* "ip,ip,..." of the up IPv4 interfaces in `include` (empty: every
 * non-loopback one; loopback if there is none). 0, or -1 if none matches. */
int tide_netif_addresses(const char *include, char *out, size_t outlen);

#endif
