/*
 * fuzz_nsproto.c: libFuzzer target for the name server protocol
 * (common/nsproto.c) as tide-nameserver reads it: the input is a stream of
 * wire frames; each is decoded with tide_ns_decode, its arguments checked
 * with tide_ns_check_request, and a valid request is applied to a name
 * table (nameserver/ns_table.c) as the server would, credentials included
 * (derived, hashed, checked on unpublish). A frame that decodes is encoded
 * again and must decode to the same message.
 */
/* sources: common/nsproto.c common/safefs.c common/hex.c common/wire.c nameserver/ns_table.c */
/* libs: -lcrypto */
#include "nsproto.h"
#include "nameserver/ns_table.h"
#include "wire.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* encode m again with the encoder of its type; decode; compare */
static void roundtrip(const struct tide_ns_msg *m)
{
    /* the encoders write this protocol version; a newer peer's hello may
     * carry more fields, which a version-1 decoder skips */
    if ((m->type == TIDE_NS_SERVER_HELLO || m->type == TIDE_NS_HELLO) &&
        m->version != TIDE_NS_PROTO_VERSION)
        return;
    struct tide_wbuf w;
    const uint8_t *mac = m->has_mac ? m->mac : NULL;
    switch (m->type) {
    case TIDE_NS_SERVER_HELLO: tide_ns_enc_server_hello(&w, m->nonce, m->flags); break;
    case TIDE_NS_HELLO: tide_ns_enc_hello(&w, m->nonce, mac, m->client); break;
    case TIDE_NS_WELCOME: tide_ns_enc_welcome(&w, m->status, mac, m->message); break;
    case TIDE_NS_PUBLISH:
        tide_ns_enc_publish(&w, m->id, m->flags, m->service, m->port, m->owner,
                            m->has_cred ? m->cred : NULL);
        break;
    case TIDE_NS_LOOKUP: tide_ns_enc_lookup(&w, m->id, m->service, m->wait_ms); break;
    case TIDE_NS_UNPUBLISH:
        tide_ns_enc_unpublish(&w, m->id, m->service, m->has_cred ? m->cred : NULL);
        break;
    case TIDE_NS_UNPUBLISH_SET:
        tide_ns_enc_unpublish_set(&w, m->id, m->nset, (const char *const *)m->set_service,
                                  (const uint8_t(*)[TIDE_NS_CRED_LEN])m->set_cred);
        break;
    case TIDE_NS_PING: tide_ns_enc_ping(&w, m->id); break;
    case TIDE_NS_STATUS: tide_ns_enc_status(&w, m->id); break;
    case TIDE_NS_REPLY:
        tide_ns_enc_reply(&w, m->id, m->status, m->value, m->count, m->message,
                          m->has_cred ? m->cred : NULL);
        break;
    default: return;
    }
    if (tide_wire_finish(&w) != 0) {
        tide_wire_free(&w);
        return;
    }
    uint16_t type;
    uint32_t plen;
    if (tide_wire_header(w.data, &type, &plen) != 0 || type != m->type)
        abort();
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, plen);
    struct tide_ns_msg m2;
    if (tide_ns_decode(type, &r, &m2) != TIDE_NS_OK)
        abort();
    if (m2.id != m->id || m2.flags != m->flags || m2.status != m->status ||
        m2.version != m->version || m2.wait_ms != m->wait_ms || m2.count != m->count ||
        m2.has_mac != m->has_mac || memcmp(m2.nonce, m->nonce, sizeof m->nonce) != 0 ||
        memcmp(m2.mac, m->mac, sizeof m->mac) != 0 || !same_str(m2.service, m->service) ||
        !same_str(m2.port, m->port) || !same_str(m2.owner, m->owner) ||
        !same_str(m2.value, m->value) || !same_str(m2.message, m->message) ||
        !same_str(m2.client, m->client) || m2.has_cred != m->has_cred ||
        memcmp(m2.cred, m->cred, sizeof m->cred) != 0 || m2.nset != m->nset)
        abort();
    for (uint32_t i = 0; i < m->nset; i++)
        if (!same_str(m2.set_service[i], m->set_service[i]) ||
            memcmp(m2.set_cred[i], m->set_cred[i], TIDE_NS_CRED_LEN) != 0)
            abort();
    tide_ns_msg_clear(&m2);
    tide_wire_free(&w);
}

static void apply(struct ns_table *t, const struct tide_ns_msg *m, uint64_t conn)
{
    char why[256];
    if (tide_ns_check_request(m, why, sizeof why) != TIDE_NS_OK)
        return;
    static const uint8_t cred_key[TIDE_NS_CRED_LEN] = {1, 2, 3};
    uint8_t cred[TIDE_NS_CRED_LEN], hash[NS_CRED_HASH_LEN];
    int changed = 0;
    switch (m->type) {
    case TIDE_NS_PUBLISH:
        if (m->flags & TIDE_NS_PUB_REASSERT)
            memcpy(cred, m->cred, sizeof cred);
        else if (tide_ns_cred_derive(cred_key, m->service, m->cred, cred) != 0)
            abort();
        if (tide_ns_cred_hash(cred, hash) != 0)
            abort();
        if (ns_table_publish(t, m->service, m->port, m->owner, hash, conn, &changed) == TIDE_NS_OK) {
            /* whoever holds the credential owns the name, nobody else */
            hash[0] ^= 1;
            if (ns_table_unpublish(t, m->service, hash) != TIDE_NS_NOT_OWNER ||
                ns_table_unpublish(t, m->service, NULL) != TIDE_NS_NOT_OWNER)
                abort();
        }
        break;
    case TIDE_NS_LOOKUP: {
        const struct ns_entry *e = ns_table_lookup(t, m->service);
        if (e && strcmp(e->service, m->service) != 0)
            abort();
        break;
    }
    case TIDE_NS_UNPUBLISH:
        if (m->has_cred && tide_ns_cred_hash(m->cred, hash) != 0)
            abort();
        (void)ns_table_unpublish(t, m->service, m->has_cred ? hash : NULL);
        break;
    case TIDE_NS_UNPUBLISH_SET:
        for (uint32_t i = 0; i < m->nset; i++)
            if (tide_ns_cred_hash(m->set_cred[i], hash) == 0)
                (void)ns_table_unpublish(t, m->set_service[i], hash);
        break;
    case TIDE_NS_STATUS: (void)ns_table_count(t); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ns_table *t = ns_table_new(64, 0x5eed);
    if (!t)
        return 0;
    size_t pos = 0;
    uint64_t conn = 1;
    while (size - pos >= TIDE_WIRE_HEADER) {
        uint16_t type;
        uint32_t plen;
        if (tide_wire_header(data + pos, &type, &plen) != 0 || plen > TIDE_NS_MAX_FRAME ||
            plen > size - pos - TIDE_WIRE_HEADER)
            break; /* the server closes the connection */
        struct tide_rbuf r;
        tide_wire_reader(&r, data + pos + TIDE_WIRE_HEADER, plen);
        pos += TIDE_WIRE_HEADER + plen;
        struct tide_ns_msg m;
        int st = tide_ns_decode(type, &r, &m);
        if (st == TIDE_NS_OK) {
            roundtrip(&m);
            apply(t, &m, conn);
        }
        tide_ns_msg_clear(&m);
        if (st == TIDE_NS_BAD_REQUEST)
            break;
        if (type == TIDE_NS_PING) /* a ping switches to another connection */
            conn = conn % 3 + 1;
    }
    (void)ns_table_drop_conn(t, 2);
    for (const struct ns_entry *e = ns_table_first(t); e; e = e->next)
        if (ns_table_lookup(t, e->service) != e)
            abort();
    ns_table_free(t);
    return 0;
}
