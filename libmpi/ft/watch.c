/*
 * watch.c: noticing the death of processes of other universes on this
 * host. Our runtime reports only its own processes; a process of a job
 * started by another mpiexec (met through a port or MPI_Comm_join) may
 * talk to us through shared memory, where nothing breaks when it dies.
 * Each such process that becomes a member of one of our communicators is
 * watched through a pidfd (its pid is in its business card); one thread,
 * started with the first watch, sleeps in poll() on them and reports a
 * death like any other (ft/failure.c), so the waiting costs nothing on
 * the paths of messages. Processes on other hosts are reached by TCP,
 * whose connection breaks when they die (transport/tcp.c).
 */
#include "runtime/api.h"
#include "ft/ft.h"
#include "runtime/proc.h"
#include "transport/card.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#define WATCH_MAX 1024

struct watch {
    const struct tide_proc *p;
    int fd;
    uint32_t rank;
    char *nspace;
};

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct watch watches[WATCH_MAX];
static int nwatches;
static int wake_fd = -1;
static bool running, stopping;
static pthread_t watcher;

static void *watch_loop(void *arg)
{
    (void)arg;
    struct pollfd fds[WATCH_MAX + 1];
    for (;;) {
        pthread_mutex_lock(&watch_lock);
        if (stopping) {
            pthread_mutex_unlock(&watch_lock);
            return NULL;
        }
        int n = 0;
        fds[n++] = (struct pollfd){.fd = wake_fd, .events = POLLIN};
        for (int i = 0; i < nwatches; i++)
            fds[n++] = (struct pollfd){.fd = watches[i].fd, .events = POLLIN};
        pthread_mutex_unlock(&watch_lock);
        if (poll(fds, (nfds_t)n, -1) < 0 && errno != EINTR)
            return NULL;
        if (fds[0].revents) {
            uint64_t v;
            if (read(wake_fd, &v, sizeof v) < 0) {
                /* drained by nobody else: nothing to do */
            }
        }
        pthread_mutex_lock(&watch_lock);
        for (int k = 1; k < n; k++) {
            if (!fds[k].revents)
                continue;
            for (int i = 0; i < nwatches; i++) {
                if (watches[i].fd != fds[k].fd)
                    continue;
                tide_ft_report_ended(watches[i].nspace, watches[i].rank);
                close(watches[i].fd);
                free(watches[i].nspace);
                watches[i] = watches[--nwatches];
                break;
            }
        }
        pthread_mutex_unlock(&watch_lock);
    }
}

void tide_ft_watch(struct tide_proc *p)
{
    struct tide_card card;
    if (p == tide.me || p->failed || tide_card_of(p, &card) != 0 || card.pid <= 0 ||
        strcmp(card.host, tide.hostname) != 0)
        return;
    pthread_mutex_lock(&watch_lock);
    bool known = false;
    for (int i = 0; i < nwatches && !known; i++)
        known = watches[i].p == p;
    if (known || nwatches == WATCH_MAX || stopping) {
        pthread_mutex_unlock(&watch_lock);
        return;
    }
    int fd = (int)syscall(SYS_pidfd_open, card.pid, 0);
    if (fd < 0) {
        pthread_mutex_unlock(&watch_lock);
        if (errno == ESRCH)
            tide_ft_report_ended(p->nspace, p->rank); /* gone already */
        return;
    }
    char *ns = strdup(p->nspace);
    if (!ns || (wake_fd < 0 && (wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)) {
        free(ns);
        close(fd);
        pthread_mutex_unlock(&watch_lock);
        return;
    }
    watches[nwatches++] = (struct watch){.p = p, .fd = fd, .rank = p->rank, .nspace = ns};
    if (!running)
        running = pthread_create(&watcher, NULL, watch_loop, NULL) == 0;
    pthread_mutex_unlock(&watch_lock);
    uint64_t one = 1;
    if (write(wake_fd, &one, sizeof one) < 0) {
        /* the counter is full: the thread wakes anyway */
    }
}

void tide_ft_watch_stop(void)
{
    pthread_mutex_lock(&watch_lock);
    stopping = true;
    bool was = running;
    pthread_mutex_unlock(&watch_lock);
    if (was) {
        uint64_t one = 1;
        if (write(wake_fd, &one, sizeof one) < 0) {
            /* the counter is full: the thread wakes anyway */
        }
        pthread_join(watcher, NULL);
    }
    for (int i = 0; i < nwatches; i++) {
        close(watches[i].fd);
        free(watches[i].nspace);
    }
    nwatches = 0;
    if (wake_fd >= 0)
        close(wake_fd);
    wake_fd = -1;
    running = stopping = false;
}
