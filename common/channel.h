/*
 * channel.h: a framed, bounds-checked message stream over a socket, driven
 * by libevent. Used for mpiexec <-> tided control and the nameserver;
 * control links between hosts are sealed (tide_channel_new_sealed).
 *
 * Incoming frames are validated (tide_wire_header) before their payload is
 * read; a bad header closes the channel with a log line and nothing else.
 * The message callback may free the channel; the free is deferred safely.
 */
#ifndef TIDE_CHANNEL_H
#define TIDE_CHANNEL_H

#include <stdint.h>
#include "wire.h"

struct event_base;
struct bufferevent;
struct tide_channel;
struct tide_ctlcrypt;

typedef void (*tide_channel_msg_fn)(struct tide_channel *ch, uint16_t type, struct tide_rbuf *payload,
                                    void *arg);
typedef void (*tide_channel_close_fn)(struct tide_channel *ch, const char *why, void *arg);

struct tide_channel *tide_channel_new(struct event_base *base, int fd, tide_channel_msg_fn on_msg,
                                      tide_channel_close_fn on_close, void *arg, const char *peer);
/* The same over a bufferevent made by the caller (e.g. a TLS one from
 * bufferevent_openssl_socket_new); the channel owns it from now on and
 * frees it (BEV_OPT_CLOSE_ON_FREE closes the socket). NULL on failure, and
 * then bev is freed too. */
struct tide_channel *tide_channel_new_bev(struct bufferevent *bev, tide_channel_msg_fn on_msg,
                                          tide_channel_close_fn on_close, void *arg,
                                          const char *peer);
/* The same over a link whose handshake gave it keys (ctlcrypt.h): every
 * frame travels sealed in a record, both ways; a record that fails its
 * tag closes the channel. The channel owns crypt from then on (it is
 * freed with the channel); on failure (NULL) crypt is still the caller's. */
struct tide_channel *tide_channel_new_sealed(struct event_base *base, int fd, struct tide_ctlcrypt *crypt,
                                             tide_channel_msg_fn on_msg, tide_channel_close_fn on_close, void *arg,
                                             const char *peer);
/* Frames whose payload is longer than max close the channel (default and
 * upper bound: TIDE_WIRE_MAX_PAYLOAD). For servers facing untrusted peers. */
void tide_channel_set_max_payload(struct tide_channel *ch, uint32_t max);
/* Bytes queued for sending that the peer has not taken yet. */
size_t tide_channel_outq(const struct tide_channel *ch);
/* Stop reading; once everything queued is written, the channel closes and
 * on_close runs with "closed after the last message" (e.g. to send a
 * refusal and hang up). If nothing is queued, on_close runs before this
 * returns. */
void tide_channel_close_after_flush(struct tide_channel *ch);
/* Finish the frame in w, queue it, and free w's buffer. -1 if closed. */
int tide_channel_send(struct tide_channel *ch, struct tide_wbuf *w);
/* Write everything queued, blocking (used before exit). Only for channels
 * made by tide_channel_new (a plain socket); a no-op on the others. */
void tide_channel_flush(struct tide_channel *ch);
void tide_channel_free(struct tide_channel *ch);
const char *tide_channel_peer(const struct tide_channel *ch);
void tide_channel_set_arg(struct tide_channel *ch, void *arg);
void *tide_channel_get_arg(const struct tide_channel *ch);
int tide_channel_fd(const struct tide_channel *ch);

#endif
