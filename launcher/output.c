/*
 * output.c: the ranks' output on mpiexec's stdout/stderr (each forwarded
 * chunk is whole lines, written with one write() so lines stay intact,
 * with "[rank] " prefixes under --tag-output), and mpiexec's stdin
 * forwarded to rank 0.
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "fdutil.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

void output_write(struct mjob *job, int rank, int stream, const void *data, size_t len)
{
    int fd = stream == 2 ? STDERR_FILENO : STDOUT_FILENO;
    if (!(job->desc.flags & TIDE_JOB_TAG_OUTPUT)) {
        tide_write_all(fd, data, len);
        return;
    }
    char prefix[48];
    int plen = job->desc.jobid == 0 ? snprintf(prefix, sizeof prefix, "[%d] ", rank)
                                    : snprintf(prefix, sizeof prefix, "[%u,%d] ", job->desc.jobid, rank);
    /* count lines to size the buffer */
    size_t lines = 1;
    const char *p = data;
    for (size_t i = 0; i < len; i++)
        if (p[i] == '\n')
            lines++;
    char *buf = malloc(len + lines * (size_t)plen + 1);
    if (!buf) {
        tide_write_all(fd, data, len);
        return;
    }
    size_t o = 0;
    bool at_start = true;
    for (size_t i = 0; i < len; i++) {
        if (at_start) {
            memcpy(buf + o, prefix, (size_t)plen);
            o += (size_t)plen;
            at_start = false;
        }
        buf[o++] = p[i];
        if (p[i] == '\n')
            at_start = true;
    }
    tide_write_all(fd, buf, o);
    free(buf);
}

static void stdin_send(const void *data, size_t n)
{
    struct mjob *job = mjob_find(0);
    if (!job)
        return;
    struct mdaemon *d = daemon_of_node(job->desc.rank_node[0]);
    if (!daemon_up(d))
        return;
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_STDIN);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_bytes(&w, data, n);
    daemon_send(d, &w);
}

static void stdin_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    (void)arg;
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        stdin_send(NULL, 0);
        stdin_stop();
        return;
    }
    stdin_send(buf, (size_t)n);
    if (mx.stdin_ev && event_get_events(mx.stdin_ev) & EV_TIMEOUT) {
        /* a regular file: keep reading from the loop without polling */
        struct timeval zero = {0, 0};
        event_add(mx.stdin_ev, &zero);
    }
}

void stdin_start(void)
{
    if (mx.opts.stdin_target == STDIN_NONE) {
        stdin_send(NULL, 0);
        mx.stdin_done = true;
        return;
    }
    struct stat st;
    if (fstat(STDIN_FILENO, &st) != 0) {
        stdin_send(NULL, 0);
        mx.stdin_done = true;
        return;
    }
    if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) && !isatty(STDIN_FILENO)) {
        /* files and devices epoll cannot watch: read them from the loop */
        mx.stdin_ev = event_new(mx.base, STDIN_FILENO, EV_TIMEOUT, stdin_cb, NULL);
        struct timeval zero = {0, 0};
        event_add(mx.stdin_ev, &zero);
        return;
    }
    mx.stdin_ev = event_new(mx.base, STDIN_FILENO, EV_READ | EV_PERSIST, stdin_cb, NULL);
    if (!mx.stdin_ev || event_add(mx.stdin_ev, NULL) != 0) {
        stdin_send(NULL, 0);
        stdin_stop();
    }
}

void stdin_stop(void)
{
    if (mx.stdin_ev) {
        event_free(mx.stdin_ev);
        mx.stdin_ev = NULL;
    }
    mx.stdin_done = true;
}
