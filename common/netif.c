/*
 * netif.c: interface selection shared by rank transports and control
 * listeners (see netif.h).
 */
#include "netif.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tide_netif_matches(const char *item, const char *name, struct in_addr addr)
{
    if (strcmp(item, name) == 0)
        return true;
    char net[64];
    snprintf(net, sizeof net, "%s", item);
    int bits = 32;
    char *slash = strchr(net, '/');
    if (slash) {
        char *end;
        long b = strtol(slash + 1, &end, 10);
        if (*end || b < 0 || b > 32 || end == slash + 1)
            return false;
        bits = (int)b;
        *slash = '\0';
    }
    struct in_addr a;
    if (inet_pton(AF_INET, net, &a) != 1)
        return false;
    uint32_t mask = bits == 0 ? 0 : htonl(0xffffffffu << (32 - bits));
    return (a.s_addr & mask) == (addr.s_addr & mask);
}

bool tide_netif_included(const char *list, const char *name, struct in_addr addr)
{
    char items[256];
    snprintf(items, sizeof items, "%s", list);
    for (char *sv = NULL, *it = strtok_r(items, ",", &sv); it; it = strtok_r(NULL, ",", &sv))
        if (tide_netif_matches(it, name, addr))
            return true;
    return false;
}

int tide_netif_addresses(const char *include, char *out, size_t outlen)
{
    out[0] = '\0';
    size_t len = 0;
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) != 0)
        ifs = NULL;
    struct in_addr lo = {.s_addr = htonl(INADDR_LOOPBACK)};
    for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
            continue;
        struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
        bool want = include && *include ? tide_netif_included(include, i->ifa_name, a) : a.s_addr != lo.s_addr;
        if (!want)
            continue;
        char ip[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &a, ip, sizeof ip);
        int n = snprintf(out + len, outlen - len, "%s%s", len ? "," : "", ip);
        if (n < 0 || len + (size_t)n >= outlen)
            break;
        len += (size_t)n;
    }
    if (ifs)
        freeifaddrs(ifs);
    if (len == 0 && include && *include)
        return -1;
    if (len == 0)
        snprintf(out, outlen, "127.0.0.1");
    return 0;
}
