/*
 * log.c: timestamped diagnostics to stderr. One write() per line so lines
 * from several processes sharing a terminal never interleave mid-line.
 */
#include "log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char log_prog[64] = "tide";
static int log_verbosity;
static struct timespec log_start;

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
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
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
