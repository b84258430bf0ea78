/*
 * log.h: timestamped diagnostics for mpiexec, tided and the nameserver.
 *
 * Level 0 prints only errors; higher levels (from --verbose or TIDE_VERBOSE)
 * add what the runtime does, so a hang can be diagnosed without a debugger.
 */
#ifndef TIDE_LOG_H
#define TIDE_LOG_H

#include <stdarg.h>
#include <stddef.h>

void tide_log_init(const char *progname, int verbosity);
int tide_log_level(void);
void tide_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tide_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tide_vlog(int level, const char *fmt, va_list ap);

/* From now on lines go through a buffer of `capacity` bytes that a thread
 * of its own writes to stderr (tide_log_async_fd: to fd), so that logging
 * never waits for whoever reads it: lines that find the buffer full are
 * dropped and counted, and "N log lines dropped" takes their place once
 * it drains. A child forked afterwards writes its own lines directly.
 * 0, or -1 (then lines are written directly, as before). */
int tide_log_async(size_t capacity);
#define TIDE_LOG_ASYNC_BYTES (256 * 1024) /* the daemons' buffer */
int tide_log_async_fd(int fd, size_t capacity);
/* Wait up to timeout_ms (< 0: for as long as it takes) for the buffered
 * lines to be written: 0 when they were (or logging is direct), -1 on
 * timeout. Done at exit without limit. */
int tide_log_flush(int timeout_ms);

#define TIDE_DEBUG(lvl, ...)                 \
    do {                                     \
        if (tide_log_level() >= (lvl))       \
            tide_log((lvl), __VA_ARGS__);    \
    } while (0)

#endif
