/*
 * fuzz_nstext.c: libFuzzer target for what the name server and its clients
 * parse from files and the command line: the persisted table
 * (nameserver/ns_persist.c), name server URIs, URI files and secret files
 * (common/nsproto.c, read by common/nsclient.c and tide-nameserver). The
 * first input byte chooses the parser, the rest is the file's contents.
 * A URI that parses is formatted again and must parse to the same thing.
 */
/* sources: nameserver/ns_persist.c nameserver/ns_table.c common/nsproto.c common/safefs.c common/hex.c common/wire.c common/fdutil.c common/log.c common/params.c common/argv.c */
/* libs: -lcrypto */
#include "nameserver/nameserver.h"
#include "nsproto.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void uri_roundtrip(const char *s)
{
    struct tide_ns_uri u, u2;
    char err[512], out[1024];
    if (tide_ns_uri_parse(s, &u, err, sizeof err) != 0) {
        if (!memchr(err, '\0', sizeof err))
            abort();
        return;
    }
    if (u.kind != TIDE_NS_URI_TCP && u.kind != TIDE_NS_URI_UNIX)
        abort();
    if (tide_ns_uri_format(&u, out, sizeof out) != 0)
        return;
    if (tide_ns_uri_parse(out, &u2, err, sizeof err) != 0 || memcmp(&u, &u2, sizeof u) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0] % 4;
    data++;
    size--;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[512] = "";
    switch (mode) {
    case 0: { /* the persisted table */
        struct ns_table *t = ns_table_new(0, 1);
        struct ns_identity id;
        memset(&id, 0, sizeof id);
        int rc = ns_persist_parse("table", data, size, t, &id, err, sizeof err);
        if (rc != 1 && rc != -1)
            abort();
        if (id.secret_len > sizeof id.secret)
            abort();
        for (const struct ns_entry *e = ns_table_first(t); e; e = e->next)
            if (ns_table_lookup(t, e->service) != e)
                abort();
        free(id.pem);
        ns_table_free(t);
        break;
    }
    case 1: /* a URI (--nameserver, TIDE_NAMESERVER) */
        uri_roundtrip(text);
        break;
    case 2: { /* a URI file */
        char uri[1024];
        uint8_t secret[TIDE_NS_SECRET_MAX];
        size_t sl = 12345;
        int rc = tide_ns_urifile_parse("urifile", text, uri, sizeof uri, secret, &sl, err,
                                       sizeof err);
        if (rc < -1 || rc > 1 || (rc == 1 && (sl < TIDE_NS_SECRET_MIN || sl > TIDE_NS_SECRET_MAX)))
            abort();
        if (rc >= 0)
            uri_roundtrip(uri);
        break;
    }
    case 3: { /* a secret file */
        uint8_t secret[TIDE_NS_SECRET_MAX];
        size_t sl = 0;
        int rc = tide_ns_secret_parse("secret", text, secret, &sl, err, sizeof err);
        if (rc == 0 && (sl < TIDE_NS_SECRET_MIN || sl > TIDE_NS_SECRET_MAX))
            abort();
        break;
    }
    }
    free(text);
    return 0;
}
