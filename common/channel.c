/*
 * channel.c: framed messages over a libevent bufferevent.
 */
#include "channel.h"
#include "ctlcrypt.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

struct tide_channel {
    struct bufferevent *bev;
    tide_channel_msg_fn on_msg;
    tide_channel_close_fn on_close;
    void *arg;
    char peer[64];
    uint32_t max_payload;
    int in_dispatch;
    int free_pending;
    int closed;
    int plain_socket; /* made by tide_channel_new: tide_channel_flush may write the fd */
    int closing;      /* tide_channel_close_after_flush: close once drained */
    struct tide_ctlcrypt *crypt; /* tide_channel_new_sealed: every frame in a record */
};

static void channel_destroy(struct tide_channel *ch)
{
    if (ch->bev) {
        /* the descriptor goes now: libevent finalises a freed bufferevent
         * later in the loop, and connections dropped in a burst (a flood
         * of unauthenticated peers) would hold their descriptors till then */
        evutil_socket_t fd = bufferevent_getfd(ch->bev);
        if (fd >= 0 && bufferevent_setfd(ch->bev, -1) == 0)
            evutil_closesocket(fd);
        bufferevent_free(ch->bev);
    }
    tide_ctlcrypt_free(ch->crypt);
    free(ch);
}

static void channel_fail(struct tide_channel *ch, const char *why)
{
    if (ch->closed)
        return;
    ch->closed = 1;
    bufferevent_disable(ch->bev, EV_READ | EV_WRITE);
    if (ch->on_close)
        ch->on_close(ch, why, ch->arg);
}

/* Open the records of a sealed channel, one frame each, and hand them on. */
static void channel_read_sealed(struct tide_channel *ch, struct evbuffer *in)
{
    while (!ch->closed && !ch->free_pending && !ch->closing) {
        size_t avail = evbuffer_get_length(in);
        if (avail < TIDE_CRYPT_HEADER)
            break;
        uint8_t rh[TIDE_CRYPT_HEADER];
        evbuffer_copyout(in, rh, sizeof rh);
        size_t plain_len;
        if (tide_ctlcrypt_record_len(rh, TIDE_WIRE_HEADER + (size_t)ch->max_payload, &plain_len) != 0 ||
            plain_len < TIDE_WIRE_HEADER) {
            tide_error("closing connection from %s: record of a bad length", ch->peer);
            channel_fail(ch, "malformed record");
            break;
        }
        size_t reclen = plain_len + TIDE_CRYPT_OVERHEAD;
        if (avail < reclen)
            break;
        uint8_t *plain = malloc(plain_len);
        const uint8_t *rec = evbuffer_pullup(in, (ev_ssize_t)reclen);
        if (!plain || !rec || tide_ctlcrypt_open(ch->crypt, rec, reclen, plain) != 0) {
            free(plain);
            tide_error("closing connection from %s: a record failed its authentication (tampered, replayed or "
                       "not from the peer)",
                       ch->peer);
            channel_fail(ch, "record failed authentication");
            break;
        }
        evbuffer_drain(in, reclen);
        uint16_t type;
        uint32_t plen;
        if (tide_wire_header(plain, &type, &plen) != 0 || (size_t)plen != plain_len - TIDE_WIRE_HEADER) {
            free(plain);
            tide_error("closing connection from %s: malformed frame header", ch->peer);
            channel_fail(ch, "malformed frame");
            break;
        }
        struct tide_rbuf r;
        tide_wire_reader(&r, plain + TIDE_WIRE_HEADER, plen);
        ch->on_msg(ch, type, &r, ch->arg);
        free(plain);
    }
}

static void channel_read_cb(struct bufferevent *bev, void *ctx)
{
    struct tide_channel *ch = ctx;
    struct evbuffer *in = bufferevent_get_input(bev);
    ch->in_dispatch++;
    if (ch->crypt) {
        channel_read_sealed(ch, in);
        goto out;
    }
    while (!ch->closed && !ch->free_pending && !ch->closing) {
        size_t avail = evbuffer_get_length(in);
        if (avail < TIDE_WIRE_HEADER)
            break;
        uint8_t hdr[TIDE_WIRE_HEADER];
        evbuffer_copyout(in, hdr, sizeof hdr);
        uint16_t type;
        uint32_t plen;
        if (tide_wire_header(hdr, &type, &plen) != 0) {
            tide_error("closing connection from %s: malformed frame header", ch->peer);
            channel_fail(ch, "malformed frame");
            break;
        }
        if (plen > ch->max_payload) {
            tide_error("closing connection from %s: frame of %u bytes (the limit is %u)", ch->peer,
                       (unsigned)plen, (unsigned)ch->max_payload);
            channel_fail(ch, "frame too long");
            break;
        }
        if (avail < TIDE_WIRE_HEADER + (size_t)plen)
            break;
        evbuffer_drain(in, TIDE_WIRE_HEADER);
        const uint8_t *payload = plen ? evbuffer_pullup(in, plen) : (const uint8_t *)"";
        struct tide_rbuf r;
        tide_wire_reader(&r, payload, plen);
        ch->on_msg(ch, type, &r, ch->arg);
        if (!ch->free_pending)
            evbuffer_drain(in, plen);
    }
out:
    ch->in_dispatch--;
    if (ch->free_pending && ch->in_dispatch == 0)
        channel_destroy(ch);
}

static void channel_event_cb(struct bufferevent *bev, short what, void *ctx)
{
    struct tide_channel *ch = ctx;
    (void)bev;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        ch->in_dispatch++;
        channel_fail(ch, (what & BEV_EVENT_EOF) ? "connection closed" : strerror(errno));
        ch->in_dispatch--;
        if (ch->free_pending && ch->in_dispatch == 0)
            channel_destroy(ch);
    }
}

static void channel_write_cb(struct bufferevent *bev, void *ctx)
{
    struct tide_channel *ch = ctx;
    if (!ch->closing || evbuffer_get_length(bufferevent_get_output(bev)) > 0)
        return;
    ch->in_dispatch++;
    channel_fail(ch, "closed after the last message");
    ch->in_dispatch--;
    if (ch->free_pending && ch->in_dispatch == 0)
        channel_destroy(ch);
}

struct tide_channel *tide_channel_new_bev(struct bufferevent *bev, tide_channel_msg_fn on_msg,
                                          tide_channel_close_fn on_close, void *arg, const char *peer)
{
    if (!bev)
        return NULL;
    struct tide_channel *ch = calloc(1, sizeof *ch);
    if (!ch) {
        bufferevent_free(bev);
        return NULL;
    }
    ch->bev = bev;
    ch->on_msg = on_msg;
    ch->on_close = on_close;
    ch->arg = arg;
    ch->max_payload = TIDE_WIRE_MAX_PAYLOAD;
    snprintf(ch->peer, sizeof ch->peer, "%s", peer ? peer : "peer");
    bufferevent_setcb(ch->bev, channel_read_cb, channel_write_cb, channel_event_cb, ch);
    bufferevent_enable(ch->bev, EV_READ | EV_WRITE);
    return ch;
}

struct tide_channel *tide_channel_new(struct event_base *base, int fd, tide_channel_msg_fn on_msg,
                                      tide_channel_close_fn on_close, void *arg, const char *peer)
{
    evutil_make_socket_nonblocking(fd);
    struct bufferevent *bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
    struct tide_channel *ch = tide_channel_new_bev(bev, on_msg, on_close, arg, peer);
    if (ch)
        ch->plain_socket = 1;
    return ch;
}

struct tide_channel *tide_channel_new_sealed(struct event_base *base, int fd, struct tide_ctlcrypt *crypt,
                                             tide_channel_msg_fn on_msg, tide_channel_close_fn on_close, void *arg,
                                             const char *peer)
{
    if (!crypt)
        return NULL;
    struct tide_channel *ch = tide_channel_new(base, fd, on_msg, on_close, arg, peer);
    if (ch)
        ch->crypt = crypt;
    return ch;
}

void tide_channel_set_max_payload(struct tide_channel *ch, uint32_t max)
{
    ch->max_payload = max < TIDE_WIRE_MAX_PAYLOAD ? max : TIDE_WIRE_MAX_PAYLOAD;
}

size_t tide_channel_outq(const struct tide_channel *ch)
{
    return evbuffer_get_length(bufferevent_get_output(ch->bev));
}

void tide_channel_close_after_flush(struct tide_channel *ch)
{
    if (ch->closed || ch->closing)
        return;
    ch->closing = 1;
    bufferevent_disable(ch->bev, EV_READ);
    if (evbuffer_get_length(bufferevent_get_output(ch->bev)) == 0) {
        ch->in_dispatch++;
        channel_fail(ch, "closed after the last message");
        ch->in_dispatch--;
        if (ch->free_pending && ch->in_dispatch == 0)
            channel_destroy(ch);
    }
}

int tide_channel_send(struct tide_channel *ch, struct tide_wbuf *w)
{
    int rc = -1;
    if (ch->closed || ch->closing || tide_wire_finish(w) != 0) {
        tide_wire_free(w);
        return -1;
    }
    if (!ch->crypt) {
        rc = bufferevent_write(ch->bev, w->data, w->len) == 0 ? 0 : -1;
    } else {
        /* sealed straight into the output buffer */
        struct evbuffer *out = bufferevent_get_output(ch->bev);
        struct evbuffer_iovec v;
        size_t reclen = w->len + TIDE_CRYPT_OVERHEAD;
        if (evbuffer_reserve_space(out, (ev_ssize_t)reclen, &v, 1) == 1 && v.iov_len >= reclen &&
            tide_ctlcrypt_seal(ch->crypt, w->data, w->len, v.iov_base) == reclen) {
            v.iov_len = reclen;
            rc = evbuffer_commit_space(out, &v, 1) == 0 ? 0 : -1;
        }
    }
    tide_wire_free(w);
    return rc;
}

void tide_channel_flush(struct tide_channel *ch)
{
    if (!ch || ch->closed || !ch->plain_socket)
        return;
    struct evbuffer *out = bufferevent_get_output(ch->bev);
    int fd = bufferevent_getfd(ch->bev);
    for (int tries = 0; evbuffer_get_length(out) > 0 && tries < 100; tries++) {
        int n = evbuffer_write(out, fd);
        if (n > 0)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            break;
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        if (poll(&p, 1, 100) <= 0 || (p.revents & (POLLERR | POLLHUP)))
            break;
    }
}

void tide_channel_free(struct tide_channel *ch)
{
    if (!ch)
        return;
    if (ch->in_dispatch) {
        ch->free_pending = 1;
        ch->closed = 1;
        return;
    }
    channel_destroy(ch);
}

const char *tide_channel_peer(const struct tide_channel *ch) { return ch->peer; }
void tide_channel_set_arg(struct tide_channel *ch, void *arg) { ch->arg = arg; }
void *tide_channel_get_arg(const struct tide_channel *ch) { return ch->arg; }
int tide_channel_fd(const struct tide_channel *ch) { return bufferevent_getfd(ch->bev); }
