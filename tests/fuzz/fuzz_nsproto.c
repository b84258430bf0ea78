/*
 * fuzz_nsproto.c: libFuzzer target for the name server protocol
 * (common/nsproto.c) as tide-nameserver reads it: the input is a stream of
 * wire frames; each is decoded with tide_ns_decode, its arguments checked
 * with tide_ns_check_request, and a valid request is applied to a name
 * table (nameserver/ns_table.c) as the server would. A frame that decodes
 * is encoded again and must decode to the same message.
 */
/* sources: common/nsproto.c common/hex.c common/wire.c nameserver/ns_table.c */
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
        tide_ns_enc_publish(&w, m->id, m->flags, m->service, m->port, m->owner);
        break;
    case TIDE_NS_LOOKUP: tide_ns_enc_lookup(&w, m->id, m->service, m->wait_ms); break;
    case TIDE_NS_UNPUBLISH: tide_ns_enc_unpublish(&w, m->id, m->service, m->owner); break;
    case TIDE_NS_UNPUBLISH_OWNER: tide_ns_enc_unpublish_owner(&w, m->id, m->owner); break;
    case TIDE_NS_PING: tide_ns_enc_ping(&w, m->id); break;
    case TIDE_NS_STATUS: tide_ns_enc_status(&w, m->id); break;
    case TIDE_NS_REPLY:
        tide_ns_enc_reply(&w, m->id, m->status, m->value, m->count, m->message);
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
        !same_str(m2.client, m->client))
        abort();
    tide_ns_msg_clear(&m2);
    tide_wire_free(&w);
}

static void apply(struct ns_table *t, const struct tide_ns_msg *m, uint64_t conn)
{
    char why[256];
    if (tide_ns_check_request(m, why, sizeof why) != TIDE_NS_OK)
        return;
    int changed = 0;
    switch (m->type) {
    case TIDE_NS_PUBLISH:
        (void)ns_table_publish(t, m->service, m->port, m->owner, conn, m->flags, &changed);
        break;
    case TIDE_NS_LOOKUP: {
        const struct ns_entry *e = ns_table_lookup(t, m->service);
        if (e && strcmp(e->service, m->service) != 0)
            abort();
        break;
    }
    case TIDE_NS_UNPUBLISH: (void)ns_table_unpublish(t, m->service, m->owner); break;
    case TIDE_NS_UNPUBLISH_OWNER: (void)ns_table_unpublish_owner(t, m->owner); break;
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
