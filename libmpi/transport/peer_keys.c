/*
 * peer_keys.c: the keys this process holds for processes of other
 * universes (peer_keys.h), in a short list (one entry per such peer).
 */
#include "transport/peer_keys.h"
#include "runtime/proc.h"
#include "runtime/state.h"

#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>

struct peer_keys {
    const struct tide_proc *proc;
    bool have_link, have_port;
    uint8_t mine[TIDE_KEY_LEN], theirs[TIDE_KEY_LEN];
    uint8_t port[TIDE_PORT_KEY_LEN];
    struct peer_keys *next;
};

static struct peer_keys *keys;

static struct peer_keys *find(const struct tide_proc *p, bool make)
{
    for (struct peer_keys *k = keys; k; k = k->next)
        if (k->proc == p)
            return k;
    if (!make)
        return NULL;
    struct peer_keys *k = calloc(1, sizeof *k);
    if (k) {
        k->proc = p;
        k->next = keys;
        keys = k;
    }
    return k;
}

void tide_peer_keys_new_link(uint8_t key[TIDE_KEY_LEN])
{
    tide_auth_random(key, TIDE_KEY_LEN);
}

int tide_peer_keys_set_link(struct tide_proc *p, const uint8_t mine[TIDE_KEY_LEN], const uint8_t theirs[TIDE_KEY_LEN])
{
    if (!p || p == tide.me || tide_auth_same_universe(p->nspace, tide.nspace))
        return -1;
    struct peer_keys *k = find(p, true);
    if (!k)
        return -1;
    memcpy(k->mine, mine, TIDE_KEY_LEN);
    memcpy(k->theirs, theirs, TIDE_KEY_LEN);
    k->have_link = true;
    return 0;
}

int tide_peer_keys_link(const struct tide_proc *p, uint8_t mine[TIDE_KEY_LEN], uint8_t theirs[TIDE_KEY_LEN])
{
    struct peer_keys *k = find(p, false);
    if (!k || !k->have_link)
        return -1;
    memcpy(mine, k->mine, TIDE_KEY_LEN);
    memcpy(theirs, k->theirs, TIDE_KEY_LEN);
    return 0;
}

void tide_peer_keys_set_port(struct tide_proc *p, const uint8_t token[TIDE_PORT_KEY_LEN])
{
    if (!p || p == tide.me || tide_auth_same_universe(p->nspace, tide.nspace))
        return;
    struct peer_keys *k = find(p, true);
    if (!k)
        return;
    memcpy(k->port, token, TIDE_PORT_KEY_LEN);
    k->have_port = true;
}

int tide_peer_keys_port(const struct tide_proc *p, uint8_t token[TIDE_PORT_KEY_LEN])
{
    struct peer_keys *k = find(p, false);
    if (!k || !k->have_port)
        return -1;
    memcpy(token, k->port, TIDE_PORT_KEY_LEN);
    return 0;
}

void tide_peer_keys_forget(const struct tide_proc *p)
{
    for (struct peer_keys **kp = &keys; *kp; kp = &(*kp)->next)
        if ((*kp)->proc == p) {
            struct peer_keys *k = *kp;
            *kp = k->next;
            OPENSSL_cleanse(k, sizeof *k);
            free(k);
            return;
        }
}

void tide_peer_keys_clear(void)
{
    while (keys) {
        struct peer_keys *k = keys;
        keys = k->next;
        OPENSSL_cleanse(k, sizeof *k);
        free(k);
    }
}
