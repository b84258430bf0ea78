/*
 * port_name.c: formatting and strict parsing of port names
 * (port_name.h). Pure string code: no library state, no allocation.
 */
#include "port_name.h"

#include <stdio.h>
#include <string.h>

#define PORT_PREFIX "tide-port:v2|"

static int hexdigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int tide_port_unhex(const char *s, size_t slen, uint8_t *out, size_t n)
{
    if (slen != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexdigit(s[2 * i]), lo = hexdigit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* printable, no separator */
static int name_ok(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x21 || s[i] > 0x7e || s[i] == '|')
            return 0;
    return 1;
}

/* "key=value;" items, at least one, printable, no separator */
static int card_ok(const char *s, size_t n)
{
    if (n == 0 || s[n - 1] != ';')
        return 0;
    size_t start = 0;
    int eq = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c < 0x20 || c > 0x7e || c == '|')
            return 0;
        if (c == '=' && !eq) {
            if (i == start)
                return 0; /* empty key */
            eq = 1;
        } else if (c == ';') {
            if (!eq)
                return 0;
            start = i + 1;
            eq = 0;
        }
    }
    return 1;
}

static int rank_parse(const char *s, size_t n, uint32_t *rank)
{
    if (n == 0 || n > 10)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > UINT32_MAX || (n > 1 && s[0] == '0'))
        return -1;
    *rank = (uint32_t)v;
    return 0;
}

int tide_port_name_format(const struct tide_port *p, char *out, size_t len)
{
    size_t nl = strnlen(p->nspace, sizeof p->nspace), cl = strnlen(p->card, sizeof p->card);
    if (!name_ok(p->nspace, nl) || nl == sizeof p->nspace || !card_ok(p->card, cl) || cl == sizeof p->card)
        return -1;
    char tok[2 * TIDE_PORT_TOKEN_LEN + 1];
    for (size_t i = 0; i < TIDE_PORT_TOKEN_LEN; i++)
        snprintf(tok + 2 * i, 3, "%02x", p->token[i]);
    int n = snprintf(out, len, PORT_PREFIX "%s|%u|%s|%s", p->nspace, p->rank, tok, p->card);
    return (n < 0 || (size_t)n >= len || (size_t)n >= TIDE_PORT_NAME_MAX) ? -1 : 0;
}

int tide_port_name_parse(const char *name, struct tide_port *p)
{
    memset(p, 0, sizeof *p);
    if (!name)
        return -1;
    size_t total = strnlen(name, TIDE_PORT_NAME_MAX);
    if (total >= TIDE_PORT_NAME_MAX || strncmp(name, PORT_PREFIX, strlen(PORT_PREFIX)) != 0)
        return -1;
    const char *s = name + strlen(PORT_PREFIX), *end = name + total;
    const char *f[4];
    size_t l[4];
    for (int i = 0; i < 4; i++) {
        const char *bar = i < 3 ? memchr(s, '|', (size_t)(end - s)) : NULL;
        if (i < 3 && !bar)
            goto bad;
        f[i] = s;
        l[i] = i < 3 ? (size_t)(bar - s) : (size_t)(end - s);
        s = i < 3 ? bar + 1 : end;
    }
    if (!name_ok(f[0], l[0]) || l[0] >= sizeof p->nspace || rank_parse(f[1], l[1], &p->rank) != 0 ||
        tide_port_unhex(f[2], l[2], p->token, TIDE_PORT_TOKEN_LEN) != 0 || l[3] >= sizeof p->card ||
        !card_ok(f[3], l[3]))
        goto bad;
    memcpy(p->nspace, f[0], l[0]);
    memcpy(p->card, f[3], l[3]);
    return 0;
bad:
    memset(p, 0, sizeof *p);
    return -1;
}
