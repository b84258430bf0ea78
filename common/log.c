/*
 * log.c: timestamped diagnostics to stderr. One write() per line so lines
 * from several processes sharing a terminal never interleave mid-line.
 *
 * The daemons (tided, mpiexec) must never stop serving because nobody
 * reads their stderr: after tide_log_async() a line goes into a bounded
 * buffer that a thread of its own writes out, the caller never waits,
 * and lines that find the buffer full are counted and reported, as
 * "N log lines dropped", where the gap is once the buffer drains.
 */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char log_prog[64] = "tide";
static int log_verbosity;
static struct timespec log_start;

/* the asynchronous writer (tide_log_async) */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t more;    /* lines were added (or the writer is to stop) */
    pthread_cond_t drained; /* the buffer is empty and nothing is in flight */
    bool on;                /* lines go to the buffer */
    bool writing;           /* the writer holds a batch in write() */
    char *buf;
    size_t len, cap;
    unsigned long dropped;  /* lines lost since the last report */
    int fd;
} aw = {.lock = PTHREAD_MUTEX_INITIALIZER,
        .more = PTHREAD_COND_INITIALIZER,
        .drained = PTHREAD_COND_INITIALIZER,
        .fd = STDERR_FILENO};

void tide_log_init(const char *progname, int verbosity)
{
    snprintf(log_prog, sizeof log_prog, "%s", progname);
    log_verbosity = verbosity;
    clock_gettime(CLOCK_MONOTONIC, &log_start);
}

int tide_log_level(void)
{
    return log_verbosity;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* stderr gone: nothing else to tell it to */
        p += w;
        n -= (size_t)w;
    }
}

/* With aw.lock held: the report of lines lost, into the buffer when it
 * fits (it always does once the buffer has drained). */
static void note_dropped_locked(void)
{
    char note[160];
    int n = snprintf(note, sizeof note, "%s: %lu log lines dropped (stderr was not being read)\n", log_prog,
                     aw.dropped);
    if (n > 0 && (size_t)n <= aw.cap - aw.len) {
        memcpy(aw.buf + aw.len, note, (size_t)n);
        aw.len += (size_t)n;
        aw.dropped = 0;
    }
}

/* Queue one line; never waits for the writer. 0, or -1 when async
 * logging is off (the caller writes it itself). */
static int enqueue(const char *line, size_t len)
{
    pthread_mutex_lock(&aw.lock);
    if (!aw.on) {
        pthread_mutex_unlock(&aw.lock);
        return -1;
    }
    if (aw.dropped)
        note_dropped_locked();
    if (!aw.dropped && len <= aw.cap - aw.len) {
        memcpy(aw.buf + aw.len, line, len);
        aw.len += len;
        pthread_cond_signal(&aw.more);
    } else {
        aw.dropped++;
    }
    pthread_mutex_unlock(&aw.lock);
    return 0;
}

static void *writer_main(void *arg)
{
    (void)arg;
    char *batch = malloc(aw.cap);
    if (!batch)
        return NULL;
    pthread_mutex_lock(&aw.lock);
    for (;;) {
        if (aw.len == 0 && aw.dropped)
            note_dropped_locked(); /* drained: say what was lost */
        while (aw.len == 0) {
            pthread_cond_broadcast(&aw.drained);
            pthread_cond_wait(&aw.more, &aw.lock);
            if (aw.len == 0 && aw.dropped)
                note_dropped_locked();
        }
        size_t n = aw.len;
        memcpy(batch, aw.buf, n);
        aw.len = 0;
        aw.writing = true;
        int fd = aw.fd;
        pthread_mutex_unlock(&aw.lock);
        write_all(fd, batch, n); /* may block: nobody waits for it */
        pthread_mutex_lock(&aw.lock);
        aw.writing = false;
    }
    return NULL;
}

/* fork(): the lock is not held across it; the child (which has no writer
 * thread) writes its lines itself */
static void atfork_prepare(void)
{
    pthread_mutex_lock(&aw.lock);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&aw.lock);
}

static void atfork_child(void)
{
    aw.on = false;
    aw.len = 0;
    aw.dropped = 0;
    pthread_mutex_unlock(&aw.lock);
}

/* at exit: nothing is served any more, so the last lines (and the count
 * of lost ones) wait for their reader, as a direct write would */
static void flush_at_exit(void)
{
    tide_log_flush(-1);
}

int tide_log_async(size_t capacity)
{
    return tide_log_async_fd(STDERR_FILENO, capacity);
}

int tide_log_async_fd(int fd, size_t capacity)
{
    static bool registered;
    if (aw.on)
        return 0;
    if (capacity < 4096)
        capacity = 4096;
    char *b = malloc(capacity);
    if (!b)
        return -1;
    if (!registered && (pthread_atfork(atfork_prepare, atfork_parent, atfork_child) != 0 ||
                        atexit(flush_at_exit) != 0)) {
        free(b);
        return -1;
    }
    registered = true;
    pthread_mutex_lock(&aw.lock);
    free(aw.buf);
    aw.buf = b;
    aw.cap = capacity;
    aw.len = 0;
    aw.dropped = 0;
    aw.fd = fd;
    /* the writer takes no signals: they stay with the threads that
     * handle them */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int rc = pthread_create(&t, NULL, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0) {
        pthread_detach(t);
        aw.on = true;
    }
    pthread_mutex_unlock(&aw.lock);
    return rc == 0 ? 0 : -1;
}

int tide_log_flush(int timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    int rc = 0;
    pthread_mutex_lock(&aw.lock);
    while (aw.on && (aw.len > 0 || aw.writing || aw.dropped))
        if (timeout_ms < 0)
            pthread_cond_wait(&aw.drained, &aw.lock);
        else if (pthread_cond_timedwait(&aw.drained, &aw.lock, &until) != 0) {
            rc = -1;
            break;
        }
    pthread_mutex_unlock(&aw.lock);
    return rc;
}

static void log_emit(const char *prefix, const char *fmt, va_list ap, int stamp)
{
    char line[2048];
    int n = 0;
    if (stamp) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double t = (double)(now.tv_sec - log_start.tv_sec) +
                   (double)(now.tv_nsec - log_start.tv_nsec) / 1e9;
        n = snprintf(line, sizeof line, "[%10.6f] %s[%d]: %s", t, log_prog, (int)getpid(), prefix);
    } else {
        n = snprintf(line, sizeof line, "%s: %s", log_prog, prefix);
    }
    if (n < 0 || (size_t)n >= sizeof line)
        n = 0;
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    if (m < 0)
        m = 0;
    size_t len = (size_t)n + (size_t)m;
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    if (len == 0 || line[len - 1] != '\n')
        line[len++] = '\n';
    if (enqueue(line, len) != 0) {
        ssize_t w = write(STDERR_FILENO, line, len);
        (void)w;
    }
}

void tide_vlog(int level, const char *fmt, va_list ap)
{
    if (level > log_verbosity)
        return;
    log_emit("", fmt, ap, 1);
}

void tide_log(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tide_vlog(level, fmt, ap);
    va_end(ap);
}

void tide_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_emit("", fmt, ap, log_verbosity > 0);
    va_end(ap);
}
