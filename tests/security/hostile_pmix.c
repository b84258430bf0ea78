/*
 * hostile_pmix.c: hostile clients of tided's PMIx TCP listener, for
 * tests/security/suite_listeners.sh. URI is a PMIX_SERVER_URI* value
 * ("nspace.rank;tcp4://127.0.0.1:PORT").
 *
 *   hostile_pmix [--as-uid UID] hold URI N SECS WATCHPID
 *       opens N connections that send nothing, prints "held N pid P" once
 *       they are all open (P: the process holding them, in the
 *       background), and holds them for SECS or until WATCHPID exits
 *   hostile_pmix [--as-uid UID] probe URI KIND MAXWAIT_MS
 *       opens one connection, sends KIND (silent: nothing; garbage: 16
 *       junk bytes and more; absurd: a connection header announcing
 *       100000 bytes, then 64; huge: a header announcing 4 GiB; partial:
 *       a header announcing 100 bytes, then 50) and prints "closed after
 *       MS ms" when the server closes it, or "still open after MS ms"
 *
 * --as-uid: when run as root, become that user first (the other-user
 * case). Exit status 0 unless the client itself failed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct sockaddr_in server;

static void parse_uri(const char *uri)
{
    const char *p = strstr(uri, "tcp4://");
    if (!p) {
        fprintf(stderr, "hostile_pmix: no tcp4:// address in '%s'\n", uri);
        exit(2);
    }
    char host[64];
    int port;
    if (sscanf(p + 7, "%63[^:]:%d", host, &port) != 2 || inet_pton(AF_INET, host, &server.sin_addr) != 1) {
        fprintf(stderr, "hostile_pmix: cannot parse '%s'\n", uri);
        exit(2);
    }
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)port);
}

static int connect_one(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return -1;
    if (connect(s, (struct sockaddr *)&server, sizeof server) != 0) {
        close(s);
        return -1;
    }
    return s;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int hold(int n, int secs, pid_t watch)
{
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    int *fds = calloc((size_t)n, sizeof *fds);
    int opened = 0;
    for (int i = 0; i < n; i++) {
        fds[i] = connect_one();
        if (fds[i] >= 0)
            opened++;
    }
    int watchfd = (int)syscall(SYS_pidfd_open, watch, 0);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child > 0) {
        printf("held %d pid %d\n", opened, (int)child);
        return 0;
    }
    /* the holder: in the background, its output closed */
    setsid();
    freopen("/dev/null", "w", stdout);
    struct pollfd pfd = {.fd = watchfd, .events = POLLIN};
    poll(&pfd, watchfd >= 0 ? 1 : 0, secs * 1000);
    _exit(0);
}

static int probe(const char *kind, int maxwait)
{
    int s = connect_one();
    if (s < 0) {
        printf("refused at connect\n");
        return 0;
    }
    long long t0 = now_ms();
    unsigned char msg[256];
    size_t len = 0;
    uint32_t hdr[4] = {UINT32_MAX, UINT32_MAX, 0, 0};
    memset(msg, 'x', sizeof msg);
    if (!strcmp(kind, "garbage")) {
        memcpy(msg, "GET / HTTP/1.0\r\n", 16);
        uint32_t big = 5000;
        memcpy(msg + 8, &big, 4);
        len = 116;
    } else if (!strcmp(kind, "absurd") || !strcmp(kind, "huge") || !strcmp(kind, "partial")) {
        hdr[2] = !strcmp(kind, "absurd") ? 100000u : !strcmp(kind, "huge") ? UINT32_MAX : 100u;
        memcpy(msg, hdr, sizeof hdr);
        len = 16 + (!strcmp(kind, "partial") ? 50 : 64);
    } else if (strcmp(kind, "silent") != 0) {
        fprintf(stderr, "hostile_pmix: unknown kind %s\n", kind);
        return 2;
    }
    if (len && send(s, msg, len, MSG_NOSIGNAL) < 0) {
        printf("closed after %lld ms (at send)\n", now_ms() - t0);
        return 0;
    }
    for (;;) {
        long long left = t0 + maxwait - now_ms();
        if (left <= 0) {
            printf("still open after %d ms\n", maxwait);
            return 0;
        }
        struct pollfd pfd = {.fd = s, .events = POLLIN};
        if (poll(&pfd, 1, (int)left) > 0) {
            char buf[512];
            ssize_t r = recv(s, buf, sizeof buf, 0);
            if (r <= 0) {
                printf("closed after %lld ms\n", now_ms() - t0);
                return 0;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int a = 1;
    if (argc > 2 && !strcmp(argv[1], "--as-uid")) {
        uid_t uid = (uid_t)atoi(argv[2]);
        if (geteuid() == 0) {
            if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(uid) != 0) {
                perror("hostile_pmix: cannot change user");
                return 2;
            }
        }
        if (geteuid() != uid) {
            fprintf(stderr, "hostile_pmix: not running as uid %u\n", (unsigned)uid);
            return 2;
        }
        a = 3;
    }
    if (argc - a == 5 && !strcmp(argv[a], "hold")) {
        parse_uri(argv[a + 1]);
        return hold(atoi(argv[a + 2]), atoi(argv[a + 3]), (pid_t)atoi(argv[a + 4]));
    }
    if (argc - a == 4 && !strcmp(argv[a], "probe")) {
        parse_uri(argv[a + 1]);
        return probe(argv[a + 2], atoi(argv[a + 3]));
    }
    fprintf(stderr, "usage: hostile_pmix [--as-uid UID] hold URI N SECS WATCHPID | probe URI KIND MAXWAIT_MS\n");
    return 2;
}
