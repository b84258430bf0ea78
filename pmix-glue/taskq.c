/*
 * taskq.c: a mutex-protected FIFO plus an eventfd watched by libevent.
 */
#include "taskq.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <event2/event.h>

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tide_task *q_head, *q_tail;
static int q_fd = -1;
static struct event *q_ev;

void tide_taskq_drain(void)
{
    for (;;) {
        pthread_mutex_lock(&q_lock);
        struct tide_task *t = q_head;
        if (t) {
            q_head = t->next;
            if (!q_head)
                q_tail = NULL;
        }
        pthread_mutex_unlock(&q_lock);
        if (!t)
            return;
        t->next = NULL;
        t->run(t);
    }
}

static void q_wake_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    (void)arg;
    uint64_t v;
    ssize_t n = read(fd, &v, sizeof v);
    (void)n;
    tide_taskq_drain();
}

int tide_taskq_init(struct event_base *base)
{
    q_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (q_fd < 0)
        return -1;
    q_ev = event_new(base, q_fd, EV_READ | EV_PERSIST, q_wake_cb, NULL);
    if (!q_ev || event_add(q_ev, NULL) != 0)
        return -1;
    return 0;
}

void tide_taskq_push(struct tide_task *task)
{
    task->next = NULL;
    pthread_mutex_lock(&q_lock);
    if (q_tail)
        q_tail->next = task;
    else
        q_head = task;
    q_tail = task;
    pthread_mutex_unlock(&q_lock);
    uint64_t one = 1;
    ssize_t n = write(q_fd, &one, sizeof one);
    (void)n;
}

void tide_taskq_fini(void)
{
    if (q_ev)
        event_free(q_ev);
    q_ev = NULL;
    if (q_fd >= 0)
        close(q_fd);
    q_fd = -1;
}
