/*
 * port.c: port names and the table of open ports (MPI_Open_port,
 * MPI_Close_port). A port name (port_name.h) carries the owner's identity,
 * its business card (so a process of another universe can reach it with
 * no shared runtime) and a random 128-bit token, this port's own: the
 * connecting process proves it in the transport's handshake, and such a
 * connection reaches only the connect/accept conversation. Connection requests for ports that are not open are refused at
 * once by a progress hook, so a connect to a closed port fails fast.
 */
#include "runtime/api.h"
#include "dpm/dpm.h"
#include "transport/card.h"
#include "transport/tcp_auth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct open_port {
    uint8_t token[TIDE_PORT_TOKEN_LEN];
    struct open_port *next;
};

static struct open_port *ports;

int tide_port_format(const struct tide_port *p, char *out, size_t len)
{
    return tide_port_name_format(p, out, len);
}

int tide_port_parse(const char *name, struct tide_port *p)
{
    if (tide_port_name_parse(name, p) != 0)
        return -1;
    struct tide_card c;
    return tide_card_parse(p->card, &c) == 0 ? 0 : -1;
}

int tide_port_open_token(int i, uint8_t token[TIDE_PORT_TOKEN_LEN])
{
    struct open_port *o = ports;
    for (; o && i > 0; i--)
        o = o->next;
    if (!o || i < 0)
        return -1;
    memcpy(token, o->token, TIDE_PORT_TOKEN_LEN);
    return 0;
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
    tide_auth_random(token, TIDE_PORT_TOKEN_LEN);
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
