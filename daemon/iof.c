/*
 * iof.c: the ranks' stdio. Output is read from each rank's stdout/stderr
 * pipes and forwarded to mpiexec in whole lines, so lines of different
 * ranks never mix; a partial line is held until its newline, the pipe's
 * end, 64 KiB, or a quiet half second. Input for rank 0 arrives from
 * mpiexec and is written to its stdin pipe without blocking the loop.
 */
#include "tided.h"
#include "fdutil.h"
#include "log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#define IOF_LINE_MAX (64 * 1024)

static void stream_send(struct dproc *p, struct dstream *s, int stream, size_t n)
{
    if (n == 0)
        return;
    hub_send_io(p, stream, s->buf, n);
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
}

/* Forward every complete line; keep the unfinished tail. */
static void stream_forward(struct dproc *p, struct dstream *s, int stream, bool all)
{
    if (all) {
        stream_send(p, s, stream, s->len);
        return;
    }
    size_t last = 0;
    for (size_t i = s->len; i > 0; i--)
        if (s->buf[i - 1] == '\n') {
            last = i;
            break;
        }
    if (last == 0 && s->len >= IOF_LINE_MAX)
        last = s->len;
    stream_send(p, s, stream, last);
}

static void flush_timer_cb(evutil_socket_t fd, short what, void *arg);

static void stream_read(struct dproc *p, struct dstream *s, int stream)
{
    for (;;) {
        if (s->cap - s->len < 4096) {
            size_t cap = s->cap ? s->cap * 2 : 8192;
            char *nb = realloc(s->buf, cap);
            if (!nb)
                break;
            s->buf = nb;
            s->cap = cap;
        }
        ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (n > 0) {
            s->len += (size_t)n;
            stream_forward(p, s, stream, false);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (s->len > 0) {
                struct timeval tv = {0, 500000};
                if (!s->flush_timer)
                    s->flush_timer = evtimer_new(tided.base, flush_timer_cb, p);
                evtimer_add(s->flush_timer, &tv);
            }
            return;
        }
        /* end of file or error: flush and stop watching */
        stream_forward(p, s, stream, true);
        if (s->ev) {
            event_free(s->ev);
            s->ev = NULL;
        }
        close(s->fd);
        s->fd = -1;
        return;
    }
}

static void flush_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct dproc *p = arg;
    stream_forward(p, &p->out, 1, true);
    stream_forward(p, &p->err, 2, true);
}

static void out_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct dproc *p = arg;
    stream_read(p, &p->out, 1);
}

static void err_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct dproc *p = arg;
    stream_read(p, &p->err, 2);
}

static void stdin_write(struct dproc *p)
{
    while (p->stdin_fd >= 0 && evbuffer_get_length(p->stdin_pending) > 0) {
        int n = evbuffer_write(p->stdin_pending, p->stdin_fd);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) {
                event_add(p->stdin_ev, NULL);
                return;
            }
            /* the rank closed its stdin: drop what is left */
            evbuffer_drain(p->stdin_pending, evbuffer_get_length(p->stdin_pending));
            break;
        }
    }
    if (p->stdin_eof && p->stdin_fd >= 0) {
        event_del(p->stdin_ev);
        close(p->stdin_fd);
        p->stdin_fd = -1;
    }
}

static void stdin_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    stdin_write(arg);
}

static void stream_init(struct dproc *p, struct dstream *s, int fd, event_callback_fn cb)
{
    s->fd = fd;
    s->buf = NULL;
    s->len = s->cap = 0;
    s->flush_timer = NULL;
    tide_fd_nonblock(fd);
    s->ev = event_new(tided.base, fd, EV_READ | EV_PERSIST, cb, p);
    event_add(s->ev, NULL);
}

void iof_start(struct dproc *p, int out_fd, int err_fd, int in_fd)
{
    stream_init(p, &p->out, out_fd, out_cb);
    stream_init(p, &p->err, err_fd, err_cb);
    p->stdin_fd = in_fd;
    if (in_fd >= 0) {
        tide_fd_nonblock(in_fd);
        p->stdin_pending = evbuffer_new();
        p->stdin_ev = event_new(tided.base, in_fd, EV_WRITE, stdin_cb, p);
    }
}

void iof_drain(struct dproc *p)
{
    if (p->out.fd >= 0)
        stream_read(p, &p->out, 1);
    if (p->err.fd >= 0)
        stream_read(p, &p->err, 2);
    /* a grandchild may hold the pipes open: forward what we have */
    stream_forward(p, &p->out, 1, true);
    stream_forward(p, &p->err, 2, true);
}

void iof_stdin(struct dproc *p, const void *data, size_t len)
{
    if (p->stdin_fd < 0 || !p->stdin_pending)
        return;
    if (len == 0)
        p->stdin_eof = true;
    else
        evbuffer_add(p->stdin_pending, data, len);
    stdin_write(p);
}

static void stream_close(struct dstream *s)
{
    if (s->ev)
        event_free(s->ev);
    s->ev = NULL;
    if (s->flush_timer)
        event_free(s->flush_timer);
    s->flush_timer = NULL;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

void iof_close(struct dproc *p)
{
    stream_close(&p->out);
    stream_close(&p->err);
    if (p->stdin_ev)
        event_free(p->stdin_ev);
    p->stdin_ev = NULL;
    if (p->stdin_pending)
        evbuffer_free(p->stdin_pending);
    p->stdin_pending = NULL;
    if (p->stdin_fd >= 0)
        close(p->stdin_fd);
    p->stdin_fd = -1;
}
