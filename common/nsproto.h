/*
 * nsproto.h: the protocol between tide-nameserver and its clients (tided,
 * tools), and the helpers both sides share: status codes, limits, frame
 * encoders/decoders (over wire.h), the HMAC-SHA256 challenge-response,
 * the URI and URI-file formats, secret files, and where the per-user
 * default service lives.
 *
 * A session: on connect the server sends SERVER_HELLO (protocol version,
 * a 32-byte random nonce, whether a secret is required). The client answers
 * HELLO (its version, its own nonce, and HMAC-SHA256(secret, "tide-ns client
 * v1" | server nonce | client nonce | server certificate fingerprint)); the
 * server replies WELCOME (status, and its own proof HMAC(secret, "tide-ns
 * server v1" | client nonce | server nonce | fingerprint)) so each side
 * knows the other holds the secret and the secret never crosses the wire.
 * Then the client sends requests, each with a 32-bit id chosen by the
 * client; every request gets exactly one REPLY with the same id (replies to
 * a LOOKUP that waits can come after later requests' replies).
 *
 *   PUBLISH(id, flags, service, port, owner, key) -> OK (cred = the credential) | DUPLICATE
 *   LOOKUP(id, service, wait_ms)              -> OK (value = port) | NOT_FOUND
 *   UNPUBLISH(id, service, cred)              -> OK | NOT_FOUND | NOT_OWNER
 *   UNPUBLISH_SET(id, n x (service, cred))    -> OK (count = names removed)
 *   PING(id)                                  -> OK
 *   STATUS(id)                                -> OK (value = "names=N ...", count = names)
 * Any request may also get TOO_LONG, BAD_REQUEST, FULL or UNSUPPORTED.
 * A frame that does not decode (truncated, trailing bytes, bad header)
 * ends the connection; a well-formed request with bad arguments gets an
 * error reply and the connection stays.
 *
 * Ownership (protocol version 2): a name belongs to whoever holds its
 * credential, TIDE_NS_CRED_LEN random-looking bytes the server issues in
 * the reply to the PUBLISH that made the name. The server keeps only a
 * SHA-256 of it. UNPUBLISH and UNPUBLISH_SET (the end of a job: every name
 * a client holds a credential for) remove a name only when the credential
 * matches; the owner string a client sends is a label for logs, nothing
 * more. A fresh PUBLISH carries a random key chosen by the client, and the
 * credential is HMAC-SHA256(server's credential key, service | key): a
 * PUBLISH sent again with the same key after a broken connection gets the
 * same credential back. A PUBLISH with TIDE_NS_PUB_REASSERT carries the
 * credential itself as its key: it re-asserts a name the client already
 * holds (OK when the name is there with this credential and port, or is
 * gone, as after a restart without --persist, and is made again with it).
 *
 * Versions: the version in HELLO and SERVER_HELLO must be
 * TIDE_NS_PROTO_VERSION on both sides; a peer speaking another version is
 * refused with TIDE_NS_VERSION and a message naming both versions (version
 * 1 had no credentials).
 */
#ifndef TIDE_NSPROTO_H
#define TIDE_NSPROTO_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

#define TIDE_NS_PROTO_VERSION 2

/* Limits, in bytes without the terminating NUL: a service name must fit an
 * MPI_MAX_INFO_VAL buffer and a port an MPI_MAX_PORT_NAME buffer (both
 * 1024 in mpi.h, NUL included). */
#define TIDE_NS_MAX_SERVICE 1023
#define TIDE_NS_MAX_PORT 1023
#define TIDE_NS_MAX_OWNER 1023
/* The largest frame payload either side accepts; bigger closes the connection. */
#define TIDE_NS_MAX_FRAME 65536
#define TIDE_NS_NONCE_LEN 32
#define TIDE_NS_MAC_LEN 32
#define TIDE_NS_SECRET_MIN 16
#define TIDE_NS_SECRET_MAX 1024
#define TIDE_NS_FP_HEX 64 /* SHA-256 fingerprint, hex, without NUL */
#define TIDE_NS_CRED_LEN 32 /* a name's credential, and a PUBLISH's key */
#define TIDE_NS_MAX_SET 1024 /* names in one UNPUBLISH_SET */

/* Frame types (the wire header's type field). */
enum tide_ns_type {
    TIDE_NS_SERVER_HELLO = 0x4e01, /* u16 version, bytes nonce, u32 flags */
    TIDE_NS_HELLO = 0x4e02,        /* u16 version, bytes nonce, bytes mac, str client */
    TIDE_NS_WELCOME = 0x4e03,      /* u16 status, bytes mac, str message */
    TIDE_NS_PUBLISH = 0x4e10,      /* u32 id, u32 flags, str service, str port, str owner, bytes key */
    TIDE_NS_LOOKUP = 0x4e11,       /* u32 id, str service, u32 wait_ms */
    TIDE_NS_UNPUBLISH = 0x4e12,    /* u32 id, str service, bytes cred (empty: none) */
    /* 0x4e13 was version 1's UNPUBLISH_OWNER (by a claimed owner string): retired */
    TIDE_NS_PING = 0x4e14,         /* u32 id */
    TIDE_NS_STATUS = 0x4e15,       /* u32 id */
    TIDE_NS_UNPUBLISH_SET = 0x4e16, /* u32 id, u32 n, n x (str service, bytes cred) */
    TIDE_NS_REPLY = 0x4e20,        /* u32 id, u16 status, str value, u64 count, str message,
                                      bytes cred (empty but in a PUBLISH's OK) */
};

/* SERVER_HELLO flags */
#define TIDE_NS_AUTH_SECRET 0x1u /* the client must prove it knows the secret */
/* PUBLISH flags */
#define TIDE_NS_PUB_REASSERT 0x1u /* a client re-publishing after a reconnect: the key is the
                                     name's credential (see "Ownership" above) */

/* Status codes. 0..63 travel on the wire; the rest are the client's own. */
enum tide_ns_status {
    TIDE_NS_OK = 0,
    TIDE_NS_NOT_FOUND = 1,
    TIDE_NS_DUPLICATE = 2,
    TIDE_NS_NOT_OWNER = 3,
    TIDE_NS_TOO_LONG = 4,
    TIDE_NS_BAD_REQUEST = 5,
    TIDE_NS_AUTH = 6,
    TIDE_NS_VERSION = 7,
    TIDE_NS_FULL = 8,
    TIDE_NS_UNSUPPORTED = 9,
    TIDE_NS_INTERNAL = 10,
    /* client-side only */
    TIDE_NS_TIMEOUT = 64,
    TIDE_NS_UNREACHABLE = 65,
    TIDE_NS_TLS = 66,
    TIDE_NS_CLOSED = 67,
    TIDE_NS_NOMEM = 68,
};

/* A short text for a status ("name not found", ...); never NULL. */
const char *tide_ns_strstatus(int status);

/* One decoded frame. Strings are heap copies (tide_ns_msg_clear frees
 * them); a string the sender marked absent is NULL. */
struct tide_ns_msg {
    uint16_t type;
    uint32_t id;
    uint16_t version;
    uint32_t flags;
    uint16_t status;
    uint32_t wait_ms;
    uint64_t count;
    uint8_t nonce[TIDE_NS_NONCE_LEN];
    uint8_t mac[TIDE_NS_MAC_LEN];
    int has_mac; /* HELLO / WELCOME carried a MAC (an empty one means none) */
    char *service, *port, *owner;
    char *value, *message, *client;
    /* PUBLISH: the key; UNPUBLISH, REPLY: the credential. has_cred 0: none */
    uint8_t cred[TIDE_NS_CRED_LEN];
    int has_cred;
    /* UNPUBLISH_SET: nset services and their credentials */
    uint32_t nset;
    char **set_service;
    uint8_t (*set_cred)[TIDE_NS_CRED_LEN];
};

/* Decode one payload of the given type into m (zeroed first).
 * Returns TIDE_NS_OK, TIDE_NS_BAD_REQUEST when the frame does not decode
 * (the connection must end), or TIDE_NS_UNSUPPORTED for an unknown type
 * (m->id then holds the payload's first u32 if it has one, so the request
 * can be answered). Decoding never checks the limits: tide_ns_check_request
 * does that. On failure nothing needs freeing. */
int tide_ns_decode(uint16_t type, struct tide_rbuf *r, struct tide_ns_msg *m);
void tide_ns_msg_clear(struct tide_ns_msg *m);

/* Check a decoded request's arguments against the limits. Returns
 * TIDE_NS_OK, TIDE_NS_TOO_LONG or TIDE_NS_BAD_REQUEST (missing or empty
 * string) and writes a message naming the argument into why. */
int tide_ns_check_request(const struct tide_ns_msg *m, char *why, size_t whylen);
/* The same check for separate arguments (NULL: not part of the request). */
int tide_ns_check_args(const char *service, const char *port, const char *owner, char *why,
                       size_t whylen);

/* Encoders: each starts w (tide_wire_begin) and fills one frame; send it
 * with tide_channel_send, or tide_wire_finish it yourself. They never check
 * the limits (so tests can send what a hostile client would). */
void tide_ns_enc_server_hello(struct tide_wbuf *w, const uint8_t nonce[TIDE_NS_NONCE_LEN],
                              uint32_t flags);
void tide_ns_enc_hello(struct tide_wbuf *w, const uint8_t nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t *mac /* NULL: none */, const char *client);
void tide_ns_enc_welcome(struct tide_wbuf *w, uint16_t status, const uint8_t *mac,
                         const char *message);
/* key / cred: TIDE_NS_CRED_LEN bytes, or NULL for none (an empty field) */
void tide_ns_enc_publish(struct tide_wbuf *w, uint32_t id, uint32_t flags, const char *service,
                         const char *port, const char *owner, const uint8_t *key);
void tide_ns_enc_lookup(struct tide_wbuf *w, uint32_t id, const char *service, uint32_t wait_ms);
void tide_ns_enc_unpublish(struct tide_wbuf *w, uint32_t id, const char *service,
                           const uint8_t *cred);
/* n services and their credentials (creds: n x TIDE_NS_CRED_LEN bytes) */
void tide_ns_enc_unpublish_set(struct tide_wbuf *w, uint32_t id, uint32_t n,
                               const char *const *services, const uint8_t (*creds)[TIDE_NS_CRED_LEN]);
void tide_ns_enc_ping(struct tide_wbuf *w, uint32_t id);
void tide_ns_enc_status(struct tide_wbuf *w, uint32_t id);
void tide_ns_enc_reply(struct tide_wbuf *w, uint32_t id, uint16_t status, const char *value,
                       uint64_t count, const char *message, const uint8_t *cred);

/* The credential of a fresh publication: HMAC-SHA256(cred_key, "tide-ns
 * cred v2" | service | NUL | key). 0, or -1 if HMAC failed. */
int tide_ns_cred_derive(const uint8_t cred_key[TIDE_NS_CRED_LEN], const char *service,
                        const uint8_t key[TIDE_NS_CRED_LEN], uint8_t cred[TIDE_NS_CRED_LEN]);
/* What the server keeps of a credential: its SHA-256. 0 or -1. */
int tide_ns_cred_hash(const uint8_t cred[TIDE_NS_CRED_LEN], uint8_t hash[TIDE_NS_CRED_LEN]);

/* Authentication proofs. fp is the server certificate's SHA-256
 * fingerprint in hex ("" over a unix socket). 0, or -1 if HMAC failed. */
int tide_ns_client_mac(const uint8_t *secret, size_t secret_len,
                       const uint8_t server_nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t client_nonce[TIDE_NS_NONCE_LEN], const char *fp,
                       uint8_t mac[TIDE_NS_MAC_LEN]);
int tide_ns_server_mac(const uint8_t *secret, size_t secret_len,
                       const uint8_t server_nonce[TIDE_NS_NONCE_LEN],
                       const uint8_t client_nonce[TIDE_NS_NONCE_LEN], const char *fp,
                       uint8_t mac[TIDE_NS_MAC_LEN]);
/* Constant-time comparison of two MACs: 1 if equal. */
int tide_ns_mac_equal(const uint8_t a[TIDE_NS_MAC_LEN], const uint8_t b[TIDE_NS_MAC_LEN]);
/* Fill buf with cryptographically random bytes. 0 or -1. */
int tide_ns_random(void *buf, size_t len);

/* The SHA-256 fingerprint of a certificate (an OpenSSL X509 *), in
 * lower-case hex. 0 or -1. */
struct x509_st;
int tide_ns_cert_fingerprint(struct x509_st *cert, char out[TIDE_NS_FP_HEX + 1]);

/* Hex helpers: hex.h. */
#include "hex.h"

/* URIs:
 *   tide-ns://HOST:PORT/#sha256=HEX   TLS over TCP, certificate pinned
 *   tide-ns://[V6ADDR]:PORT/#sha256=HEX
 *   tide-ns+unix://PATH               a unix socket (no TLS; peer uid checked)
 */
enum tide_ns_uri_kind { TIDE_NS_URI_TCP = 1, TIDE_NS_URI_UNIX = 2 };
struct tide_ns_uri {
    int kind;
    char host[256];
    unsigned port;
    char fingerprint[TIDE_NS_FP_HEX + 1]; /* lower-case hex */
    char path[108];
};
/* Parse a URI. 0, or -1 with a message in err. */
int tide_ns_uri_parse(const char *s, struct tide_ns_uri *u, char *err, size_t errlen);
/* Format a URI into out. 0, or -1 if it does not fit. */
int tide_ns_uri_format(const struct tide_ns_uri *u, char *out, size_t outlen);

/* The URI file a server writes (mode 0600):
 *   line 1: the URI
 *   then key=value lines: secret=HEX (the secret, hex-encoded; absent for
 *   a server that needs none), pid=PID
 * tide_ns_urifile_read reads the URI and the secret (*secret_len = 0 if
 * none). 0, or -1 with a message. */
int tide_ns_urifile_read(const char *path, char *uri, size_t urilen, uint8_t *secret,
                         size_t *secret_len, char *err, size_t errlen);

/* The text part of tide_ns_urifile_read, on a file's contents (path only
 * names it in messages): 1 with a secret, 0 without, or -1 with a message. */
int tide_ns_urifile_parse(const char *path, const char *text, char *uri, size_t urilen,
                          uint8_t *secret, size_t *secret_len, char *err, size_t errlen);

/* A secret file: if it has a line "secret=HEX" (a URI file), that secret;
 * otherwise the file's contents without trailing white space, taken as the
 * secret's bytes. It must be readable only by its owner and hold at least
 * TIDE_NS_SECRET_MIN bytes. 0, or -1 with a message. */
int tide_ns_secret_load(const char *path, uint8_t *secret, size_t *secret_len, char *err,
                        size_t errlen);

/* The text part of tide_ns_secret_load, on a file's contents. 0 or -1. */
int tide_ns_secret_parse(const char *path, const char *text, uint8_t *secret, size_t *secret_len,
                         char *err, size_t errlen);

/* The per-user default service's directory: $TIDE_NS_DIR if set, else
 * $XDG_RUNTIME_DIR/tide if XDG_RUNTIME_DIR is a private directory of ours
 * (0700), else HOME/.tide/ns-HOST (HOME ours; .tide and ns-HOST made and
 * checked private): places only the user can make, never a name in /tmp
 * another user could take first. With create, make it (0700) if missing. In every case the
 * directory must be a real directory owned by us with no group or other
 * access, or this fails (someone else could squat it). 0, or -1 with a
 * message and errno ENOENT when the directory does not exist (create 0). The socket is DIR/ns.sock, the start-up lock DIR/ns.lock. */
int tide_ns_user_dir(char *dir, size_t dirlen, int create, char *err, size_t errlen);
int tide_ns_user_paths(char *sock, size_t socklen, char *lock, size_t locklen, int create, char *err,
                       size_t errlen);

#endif
