/*
 * log.h: timestamped diagnostics for mpiexec, tided and the nameserver.
 *
 * Level 0 prints only errors; higher levels (from --verbose or TIDE_VERBOSE)
 * add what the runtime does, so a hang can be diagnosed without a debugger.
 */
#ifndef TIDE_LOG_H
#define TIDE_LOG_H

#include <stdarg.h>

void tide_log_init(const char *progname, int verbosity);
int tide_log_level(void);
void tide_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tide_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tide_vlog(int level, const char *fmt, va_list ap);

#define TIDE_DEBUG(lvl, ...)                 \
    do {                                     \
        if (tide_log_level() >= (lvl))       \
            tide_log((lvl), __VA_ARGS__);    \
    } while (0)

#endif
