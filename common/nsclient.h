/*
 * nsclient.h: the client of tide-nameserver, for tided and tools.
 *
 * Asynchronous, on the caller's libevent base: requests are queued, sent
 * once the connection is up and authenticated, and answered through a
 * callback that always runs from the event loop (never inside the call
 * that made the request). The client connects when it first has something
 * to do, reconnects after the server restarts or the connection breaks,
 * and then re-publishes every name it published that was not unpublished,
 * so a server restarted without --persist still gets back the names of the
 * jobs that are running. A request that cannot be answered within the
 * timeout fails with TIDE_NS_TIMEOUT (or TIDE_NS_UNREACHABLE, TIDE_NS_AUTH,
 * TIDE_NS_TLS when the cause is known) and a message saying why.
 *
 * Where the server is (the uri argument of tide_ns_open):
 *   NULL or ""                the per-user default service: a unix socket in
 *                             a private per-user directory (nsproto.h,
 *                             tide_ns_user_dir); when nothing listens there,
 *                             the client starts "tide-nameserver --user-default"
 *                             (found next to the calling program, or in
 *                             PATH) and connects once it is up; two clients
 *                             doing this at once end up with one server
 *   "@FILE"                   the URI file a server wrote (URI and secret);
 *                             read again at every reconnection, so a server
 *                             restarted on another port or with another
 *                             secret is found again
 *   "tide-ns://HOST:PORT/#sha256=HEX"   TLS, the certificate pinned to HEX;
 *                             the secret from the secret argument,
 *                             opts->secret_file or $TIDE_NAMESERVER_SECRET_FILE
 *   "tide-ns+unix://PATH"     a unix socket (its owner must be our user)
 *
 * Ownership: the server answers each publish with the name's credential
 * (nsproto.h, "Ownership"); the client keeps it in memory, never anywhere
 * else, and presents it to unpublish the name, to drop a job's names
 * (tide_ns_unpublish_owner) and to re-publish after a reconnection. The
 * owner string names the publisher within this client (and in the
 * server's log); it proves nothing to the server. A name published by
 * another client, or by a client that has exited, cannot be unpublished
 * through this one.
 *
 * Not thread-safe: use a client from the thread that runs its base.
 */
#ifndef TIDE_NSCLIENT_H
#define TIDE_NSCLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "nsproto.h"

struct event_base;
struct tide_ns_client;

struct tide_ns_opts {
    /* How long a request may take beyond its own wait (lookups), covering
     * connecting, starting the default server and reconnecting (0: 10000). */
    int timeout_ms;
    /* A file holding the secret (see tide_ns_secret_load), used when the
     * secret argument is NULL and the URI is not an @FILE. */
    const char *secret_file;
    /* Per-user default service: the tide-nameserver program to start (NULL:
     * next to this program, i.e. dirname of /proc/self/exe, then PATH),
     * whether never to start one, and its --idle-exit (0: its default). */
    const char *server_prog;
    int no_autostart;
    int idle_exit;
    /* How the client introduces itself in the server's log (NULL: program name and pid). */
    const char *client_name;
};

struct tide_ns_result {
    int status;          /* TIDE_NS_OK or another enum tide_ns_status value */
    const char *value;   /* lookup: the port; status: the server's description */
    uint64_t count;      /* unpublish_owner: names removed; status: names held */
    const char *message; /* never NULL: what happened, fit for an error message */
};

/* r and everything it points to are valid during the callback only. */
typedef void (*tide_ns_cb)(const struct tide_ns_result *r, void *arg);

/* Make a client. Does not connect yet. secret: the secret's bytes as text
 * (NULL: see above). opts may be NULL. Returns NULL with a message in err
 * when the URI is malformed, the URI file cannot be read, or no secret is
 * available for a TLS server. */
struct tide_ns_client *tide_ns_open(struct event_base *base, const char *uri, const char *secret,
                                    const struct tide_ns_opts *opts, char *err, size_t errlen);

/* Requests. Each returns 0 when cb will run exactly once, or -1 (no
 * callback) when the client is closing or memory ran out. Arguments over
 * the limits (nsproto.h) or empty fail through cb with TIDE_NS_TOO_LONG or
 * TIDE_NS_BAD_REQUEST, without a round trip. */
/* -> OK | DUPLICATE (the service is already published, by anyone).
 * On OK the client holds the name's credential. */
int tide_ns_publish(struct tide_ns_client *c, const char *service, const char *port,
                    const char *owner, tide_ns_cb cb, void *arg);
/* -> OK (value = port) | NOT_FOUND. wait_ms > 0: the server answers as soon
 * as the name is published, or NOT_FOUND after wait_ms. */
int tide_ns_lookup(struct tide_ns_client *c, const char *service, uint32_t wait_ms, tide_ns_cb cb,
                   void *arg);
/* -> OK | NOT_FOUND | NOT_OWNER. The credential presented is the one this
 * client holds for service if it published it with this owner; otherwise
 * none (and the server answers NOT_OWNER if the name exists). */
int tide_ns_unpublish(struct tide_ns_client *c, const char *service, const char *owner,
                      tide_ns_cb cb, void *arg);
/* Remove every name this client published with owner or "owner/..." (a job
 * ended), presenting their credentials. -> OK, count = removed (0 without
 * a round trip when the client published none) */
int tide_ns_unpublish_owner(struct tide_ns_client *c, const char *owner, tide_ns_cb cb, void *arg);
/* Unpublish with the given credential (tools and tests). */
int tide_ns_unpublish_cred(struct tide_ns_client *c, const char *service,
                           const uint8_t cred[TIDE_NS_CRED_LEN], tide_ns_cb cb, void *arg);
/* Copy the credential held for service. 0, or -1 if none is held. */
int tide_ns_held_cred(const struct tide_ns_client *c, const char *service,
                      uint8_t cred[TIDE_NS_CRED_LEN]);
int tide_ns_ping(struct tide_ns_client *c, tide_ns_cb cb, void *arg);
/* -> OK, value = "names=N connections=N waiters=N pid=N mode=tls|user persist=yes|no" */
int tide_ns_status(struct tide_ns_client *c, tide_ns_cb cb, void *arg);

/* The last connection problem, for diagnostics ("" if none). */
const char *tide_ns_last_error(const struct tide_ns_client *c);
/* 1 when connected and authenticated. */
int tide_ns_connected(const struct tide_ns_client *c);

/* Close: every pending request's callback runs now with TIDE_NS_CLOSED,
 * then the client is freed (later, if called from one of its callbacks).
 * Names it published stay on a TLS server until unpublished; the per-user
 * service drops them with the connection. */
void tide_ns_close(struct tide_ns_client *c);

/* ---- blocking wrapper, for tests and tools: runs its own event base ---- */

struct tide_ns_sync;
struct tide_ns_sync *tide_ns_sync_open(const char *uri, const char *secret,
                                       const struct tide_ns_opts *opts, char *err, size_t errlen);
/* Each returns the status; msg (may be NULL) gets the result's message. */
int tide_ns_sync_publish(struct tide_ns_sync *s, const char *service, const char *port,
                         const char *owner, char *msg, size_t msglen);
int tide_ns_sync_lookup(struct tide_ns_sync *s, const char *service, uint32_t wait_ms, char *port,
                        size_t portlen, char *msg, size_t msglen);
int tide_ns_sync_unpublish(struct tide_ns_sync *s, const char *service, const char *owner, char *msg,
                           size_t msglen);
int tide_ns_sync_unpublish_cred(struct tide_ns_sync *s, const char *service,
                                const uint8_t cred[TIDE_NS_CRED_LEN], char *msg, size_t msglen);
int tide_ns_sync_unpublish_owner(struct tide_ns_sync *s, const char *owner, uint64_t *count,
                                 char *msg, size_t msglen);
int tide_ns_sync_ping(struct tide_ns_sync *s, char *msg, size_t msglen);
int tide_ns_sync_status(struct tide_ns_sync *s, char *value, size_t valuelen, char *msg,
                        size_t msglen);
struct tide_ns_client *tide_ns_sync_client(struct tide_ns_sync *s);
struct event_base *tide_ns_sync_base(struct tide_ns_sync *s);
void tide_ns_sync_close(struct tide_ns_sync *s);

#endif
