/*
 * nameserver.h: what the parts of tide-nameserver share: the server state,
 * and the entry points of the connection handling (ns_server.c), TLS
 * identity (ns_tls.c) and persistence (ns_persist.c). ns_main.c parses the
 * options and runs it.
 */
#ifndef TIDE_NAMESERVER_H
#define TIDE_NAMESERVER_H

#include <stddef.h>
#include <stdint.h>

#include "nsproto.h"
#include "ns_table.h"

struct event_base;
struct event;
struct evconnlistener;
struct ssl_ctx_st;
struct ns_conn;

/* What survives a restart with --persist besides the names. */
struct ns_identity {
    uint8_t secret[TIDE_NS_SECRET_MAX];
    size_t secret_len;
    char *pem; /* private key and certificate, PEM (NULL: none yet) */
    unsigned port;
    /* the key credentials are derived with (nsproto.h, "Ownership") */
    uint8_t cred_key[TIDE_NS_CRED_LEN];
    int has_cred_key;
};

struct ns_server {
    struct event_base *base;
    struct ns_table *table;
    int user_mode;                 /* unix socket; names die with their connection */
    struct ssl_ctx_st *ssl_ctx;    /* TCP mode: TLS */
    char fingerprint[TIDE_NS_FP_HEX + 1];
    struct ns_identity id;         /* the secret lives here too */
    const char *persist_path;      /* NULL: no persistence */
    int idle_exit;                 /* seconds without names and connections before exiting (0: never) */
    size_t max_conns;              /* connections beyond are refused */
    size_t max_pending;            /* unauthenticated connections kept; beyond, the oldest goes */
    int auth_timeout_ms;           /* time a new connection has to authenticate */

    /* run time */
    struct evconnlistener *listener;
    struct event *idle_ev, *save_ev, *relisten_ev, *trim_ev;
    struct ns_conn *conns;
    size_t nconns, nwaiters;
    size_t npending;               /* connections not yet authenticated */
    size_t freed_since_trim;       /* connections freed since memory was last given back */
    struct ns_waiter *waiters;
    uint64_t next_conn_id;
    int dirty;                     /* the table changed since the last save */
    int save_failed;
    uint64_t requests, refused;    /* statistics */
};

/* ns_server.c */
/* Start serving connections accepted on the listening socket fd. 0 or -1. */
int ns_server_start(struct ns_server *s, int listen_fd);
/* Close every connection, cancel waits, stop listening. */
void ns_server_stop(struct ns_server *s);
/* Save now if the table changed (before exit). */
void ns_server_save_now(struct ns_server *s);

/* ns_tls.c */
/* Make the TLS server context from the identity's PEM, or generate a key
 * and self-signed certificate (then id->pem is set to them). Writes the
 * certificate's fingerprint. 0, or -1 with a message. */
int ns_tls_setup(struct ns_server *s, char *err, size_t errlen);
void ns_tls_fini(struct ns_server *s);

/* ns_persist.c */
/* Load the saved table and identity. 1 loaded, 0 no file, -1 error (message). */
int ns_persist_load(const char *path, struct ns_table *t, struct ns_identity *id, char *err,
                    size_t errlen);
/* The parsing part of ns_persist_load, on the file's bytes (path only
 * names it in messages). 1, or -1 with a message. */
int ns_persist_parse(const char *path, const uint8_t *buf, size_t len, struct ns_table *t,
                     struct ns_identity *id, char *err, size_t errlen);
/* Save atomically (temporary file, fsync, rename, fsync of the directory).
 * 0, or -1 with a message; the old file is then untouched. */
int ns_persist_save(const char *path, const struct ns_table *t, const struct ns_identity *id,
                    char *err, size_t errlen);

#endif
