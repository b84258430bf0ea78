/*
 * test_log.c: the daemons' asynchronous log (common/log.c). Logging never
 * waits for a reader that does not read; lines that do not fit its
 * buffer are counted, and the count is written where they would have
 * been once the reader catches up: every line is either written, in
 * order, or counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "log.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NLINES 2000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Read from fd until `until` occurs in what was read or 10 s pass. */
static size_t read_until(int fd, char *buf, size_t cap, size_t len, const char *until)
{
    double end = now_s() + 10;
    while (now_s() < end) {
        buf[len] = '\0';
        if (strstr(buf, until))
            break;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        ssize_t r = read(fd, buf + len, cap - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    return len;
}

static void test_never_waits_and_counts(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    /* one page in the pipe, 4 KiB of buffer: most lines cannot fit */
    assert_true(fcntl(p[0], F_SETPIPE_SZ, 4096) > 0);
    tide_log_init("logtest", 1);
    assert_int_equal(tide_log_async_fd(p[1], 4096), 0);
    double t0 = now_s();
    for (int i = 0; i < NLINES; i++)
        tide_log(1, "line %d of the test, long enough to fill the pipe soon", i);
    double took = now_s() - t0;
    /* nobody has read anything: a blocking logger would still be here */
    assert_true(took < 5.0);
    /* a timed flush gives up while the reader sleeps */
    assert_int_equal(tide_log_flush(100), -1);

    size_t cap = 1 << 22;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t len = read_until(p[0], buf, cap, 0, "log lines dropped");
    assert_non_null(strstr(buf, "log lines dropped"));
    /* read on until the writer has nothing left (a line logged while its
     * buffer is still full would be dropped too) */
    double end = now_s() + 10;
    while (tide_log_flush(1) != 0 && now_s() < end) {
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        if (poll(&pf, 1, 10) > 0) {
            ssize_t r = read(p[0], buf + len, cap - 1 - len);
            if (r > 0)
                len += (size_t)r;
        }
    }
    buf[len] = '\0';
    /* once drained, a new line comes after the report */
    tide_log(1, "the last line");
    len = read_until(p[0], buf, cap, len, "the last line");
    assert_int_equal(tide_log_flush(5000), 0);

    /* every line is there in order, and each gap is reported where it
     * is, with its size */
    int next = 0, notes = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        int k;
        unsigned long d;
        const char *l = strstr(line, "]: line ");
        if (sscanf(line, "logtest: %lu log lines dropped", &d) == 1) {
            next += (int)d;
            notes++;
        } else if (l && sscanf(l, "]: line %d of the test", &k) == 1) {
            assert_int_equal(k, next);
            next++;
        }
    }
    (void)len;
    assert_true(notes > 0);
    assert_int_equal(next, NLINES);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_waits_and_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
