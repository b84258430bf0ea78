/*
 * port.c: port names and the table of open ports (MPI_Open_port,
 * MPI_Close_port). A port name carries the owner's identity, its business
 * card (so a process of another universe can reach it with no shared
 * runtime) and a random 128-bit token that a connecting process must
 * present. Connection requests for ports that are not open are refused at
 * once by a progress hook, so a connect to a closed port fails fast.
 */
#include "runtime/api.h"
#include "dpm/dpm.h"
#include "transport/card.h"

#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_PREFIX "tide-port:"

struct open_port {
    uint8_t token[TIDE_PORT_TOKEN_LEN];
    struct open_port *next;
};

static struct open_port *ports;

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static int unhex(const char *s, uint8_t *b, size_t n)
{
    if (strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        b[i] = (uint8_t)v;
    }
    return 0;
}

int tide_port_format(const struct tide_port *p, char *out, size_t len)
{
    char tok[2 * TIDE_PORT_TOKEN_LEN + 1];
    hex(p->token, TIDE_PORT_TOKEN_LEN, tok);
    int n = snprintf(out, len, PORT_PREFIX "v1|%s|%u|%s|%s", p->nspace, p->rank, tok, p->card);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int tide_port_parse(const char *name, struct tide_port *p)
{
    memset(p, 0, sizeof *p);
    if (!name || strncmp(name, PORT_PREFIX "v1|", strlen(PORT_PREFIX) + 3) != 0)
        return -1;
    size_t total = strnlen(name, MPI_MAX_PORT_NAME + 1);
    if (total > MPI_MAX_PORT_NAME)
        return -1;
    const char *s = name + strlen(PORT_PREFIX) + 3;
    const char *f[4];
    size_t l[4];
    for (int i = 0; i < 4; i++) {
        const char *bar = strchr(s, '|');
        if (i < 3 && !bar)
            return -1;
        f[i] = s;
        l[i] = i < 3 ? (size_t)(bar - s) : strlen(s);
        s = bar ? bar + 1 : s + l[i];
    }
    if (l[0] == 0 || l[0] >= sizeof p->nspace || l[1] == 0 || l[1] > 10 || l[3] >= sizeof p->card)
        return -1;
    memcpy(p->nspace, f[0], l[0]);
    char num[16] = {0}, tok[2 * TIDE_PORT_TOKEN_LEN + 1] = {0};
    memcpy(num, f[1], l[1]);
    char *end;
    unsigned long r = strtoul(num, &end, 10);
    if (*end || r > 0xffffffffu)
        return -1;
    p->rank = (uint32_t)r;
    if (l[2] != 2 * TIDE_PORT_TOKEN_LEN)
        return -1;
    memcpy(tok, f[2], l[2]);
    if (unhex(tok, p->token, TIDE_PORT_TOKEN_LEN) != 0)
        return -1;
    memcpy(p->card, f[3], l[3]);
    struct tide_card c;
    return tide_card_parse(p->card, &c) == 0 ? 0 : -1;
}

int tide_port_is_open(const uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    for (struct open_port *o = ports; o; o = o->next)
        if (memcmp(o->token, token, TIDE_PORT_TOKEN_LEN) == 0)
            return 1;
    return 0;
}

static void add_port(const uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    struct open_port *o = calloc(1, sizeof *o);
    if (!o)
        return;
    memcpy(o->token, token, TIDE_PORT_TOKEN_LEN);
    o->next = ports;
    ports = o;
}

void tide_port_open_internal(uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    if (RAND_bytes(token, TIDE_PORT_TOKEN_LEN) != 1)
        for (int i = 0; i < TIDE_PORT_TOKEN_LEN; i++)
            token[i] = (uint8_t)rand();
    add_port(token);
}

void tide_port_close_token(const uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    for (struct open_port **pp = &ports; *pp; pp = &(*pp)->next)
        if (memcmp((*pp)->token, token, TIDE_PORT_TOKEN_LEN) == 0) {
            struct open_port *o = *pp;
            *pp = o->next;
            free(o);
            return;
        }
}

int tide_port_tag(const uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    uint32_t v = (uint32_t)token[0] | (uint32_t)token[1] << 8 | (uint32_t)token[2] << 16 |
                 (uint32_t)token[3] << 24;
    return (int)(v & 0x3fffffffu) | 1;
}

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    TIDE_API_ENTER();
    (void)info;
    if (!port_name)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Open_port: port_name must not be NULL");
    if (!tide_is_active())
        return TIDE_ERR(MPI_ERR_OTHER, "MPI_Open_port: MPI is not initialised");
    struct tide_port p;
    memset(&p, 0, sizeof p);
    snprintf(p.nspace, sizeof p.nspace, "%s", tide.nspace);
    p.rank = tide.rank;
    snprintf(p.card, sizeof p.card, "%s", tide_card_text());
    tide_port_open_internal(p.token);
    if (tide_port_format(&p, port_name, MPI_MAX_PORT_NAME) != 0) {
        tide_port_close_token(p.token);
        return TIDE_ERR(MPI_ERR_INTERN, "MPI_Open_port: the port name does not fit in MPI_MAX_PORT_NAME");
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Open_port)

int PMPI_Close_port(const char *port_name)
{
    TIDE_API_ENTER();
    struct tide_port p;
    if (!port_name || tide_port_parse(port_name, &p) != 0)
        return TIDE_ERR(MPI_ERR_PORT, "MPI_Close_port: '%.60s' is not a port name (argument port_name)",
                        port_name ? port_name : "(null)");
    if (strcmp(p.nspace, tide.nspace) != 0 || p.rank != tide.rank || !tide_port_is_open(p.token))
        return TIDE_ERR(MPI_ERR_PORT, "MPI_Close_port: the port is not open in this process (argument port_name)");
    tide_port_close_token(p.token);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Close_port)

void tide_ports_finalize(void)
{
    while (ports) {
        struct open_port *o = ports;
        ports = o->next;
        free(o);
    }
}
