/*
 * ns_client.c: a scriptable tide-nameserver client for the test suite,
 * built on the client library (nsclient.h). It runs its commands in order
 * on one client and exits 0 if each ended with the status it expected, 1
 * (saying which and why) otherwise.
 *
 *   ns_client [--uri URI|@FILE] [--secret-file F] [--timeout MS]
 *             [--server-prog PATH] [--no-autostart] [--idle-exit S] COMMAND...
 * Commands (append =STATUS to expect another status than ok, e.g.
 * =not_found, =duplicate, =not_owner, =too_long, =bad_request, =auth, =tls,
 * =unreachable, =timeout, =any):
 *   publish SERVICE PORT OWNER      lookup SERVICE [WAIT_MS] [PORT]
 *   unpublish SERVICE OWNER         unpublish-owner OWNER [COUNT]
 *   unpublish-cred SERVICE CRED     unpublish presenting CRED: 64 hex digits,
 *                                   "held" (the credential this client holds)
 *                                   or "flipped" (it with one bit changed)
 *   ping                            status   (prints the server's status)
 *   many N PREFIX OWNER             publish N names at once (pipelined)
 *   check-many N PREFIX             look all of them up (pipelined)
 *   long-service N / long-port N    publish a name / port of N bytes
 *   touch FILE                      create FILE (tells the test script)
 *   hold-until FILE                 keep serving (reconnecting, re-publishing)
 *                                   until FILE exists
 *   wait-connected                  run until connected (or the timeout)
 */
#include "nsclient.h"
#include "hex.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

static const struct {
    const char *name;
    int status;
} names[] = {
    {"ok", TIDE_NS_OK},
    {"not_found", TIDE_NS_NOT_FOUND},
    {"duplicate", TIDE_NS_DUPLICATE},
    {"not_owner", TIDE_NS_NOT_OWNER},
    {"too_long", TIDE_NS_TOO_LONG},
    {"bad_request", TIDE_NS_BAD_REQUEST},
    {"auth", TIDE_NS_AUTH},
    {"version", TIDE_NS_VERSION},
    {"full", TIDE_NS_FULL},
    {"timeout", TIDE_NS_TIMEOUT},
    {"unreachable", TIDE_NS_UNREACHABLE},
    {"tls", TIDE_NS_TLS},
    {"closed", TIDE_NS_CLOSED},
    {"any", -1},
};

static const char *status_name(int st)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].status == st)
            return names[i].name;
    return "other";
}

static int parse_status(const char *s)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, s) == 0)
            return names[i].status;
    fprintf(stderr, "ns_client: unknown status '%s'\n", s);
    exit(2);
}

static struct tide_ns_sync *sync_c;
static int timeout_ms = 10000;

static int check(const char *what, int got, int want, const char *msg)
{
    if (want >= 0 && got != want) {
        printf("ns_client: %s: got %s (%s), expected %s\n", what, status_name(got), msg, status_name(want));
        return 1;
    }
    printf("%s: %s%s%s\n", what, status_name(got), got ? ": " : "", got ? msg : "");
    return 0;
}

/* pipelined requests: count the answers */
struct batch {
    int pending, failures, want;
    const char *prefix;
    int first_bad;
};

static void batch_cb(const struct tide_ns_result *r, void *arg)
{
    struct batch *b = arg;
    b->pending--;
    if (r->status != TIDE_NS_OK) {
        if (!b->failures)
            printf("ns_client: first failure: %s (%s)\n", status_name(r->status), r->message);
        b->failures++;
    }
}

struct lookup_check {
    struct batch *b;
    char want[64];
};

static void lookup_check_cb(const struct tide_ns_result *r, void *arg)
{
    struct lookup_check *lc = arg;
    struct batch *b = lc->b;
    b->pending--;
    if (r->status != TIDE_NS_OK || !r->value || strcmp(r->value, lc->want) != 0) {
        if (!b->failures)
            printf("ns_client: lookup expecting %s: %s (%s)\n", lc->want, status_name(r->status),
                   r->value ? r->value : r->message);
        b->failures++;
    }
    free(lc);
}

static void run_until(int *flag_pending_zero, const char *file, int (*cond)(void))
{
    struct event_base *base = tide_ns_sync_base(sync_c);
    struct timeval tick = {0, 20000};
    for (;;) {
        if (flag_pending_zero && *flag_pending_zero == 0)
            return;
        if (file && access(file, F_OK) == 0)
            return;
        if (cond && cond())
            return;
        event_base_loopexit(base, &tick);
        event_base_dispatch(base);
    }
}

static int connected_cond(void) { return tide_ns_connected(tide_ns_sync_client(sync_c)); }

int main(int argc, char **argv)
{
    const char *uri = NULL;
    struct tide_ns_opts o = {0};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--uri") == 0 && i + 1 < argc)
            uri = argv[++i];
        else if (strcmp(argv[i], "--secret-file") == 0 && i + 1 < argc)
            o.secret_file = argv[++i];
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            o.timeout_ms = timeout_ms = atoi(argv[++i]);
        else if (strcmp(argv[i], "--server-prog") == 0 && i + 1 < argc)
            o.server_prog = argv[++i];
        else if (strcmp(argv[i], "--idle-exit") == 0 && i + 1 < argc)
            o.idle_exit = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-autostart") == 0)
            o.no_autostart = 1;
        else {
            fprintf(stderr, "ns_client: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    o.client_name = "ns_client";
    char err[1024];
    sync_c = tide_ns_sync_open(uri, NULL, &o, err, sizeof err);
    if (!sync_c) {
        printf("ns_client: open: %s\n", err);
        return 3;
    }
    struct tide_ns_client *c = tide_ns_sync_client(sync_c);
    int bad = 0;
    char msg[2048], val[2048], what[256];
    while (i < argc && !bad) {
        /* gather the command's words up to the next command (or =STATUS) */
        const char *cmd = argv[i++];
        const char *a[4] = {NULL, NULL, NULL, NULL};
        int na = 0, want = TIDE_NS_OK;
        static const char *cmds[] = {"publish", "lookup", "unpublish", "unpublish-owner", "unpublish-cred", "ping",
                                     "status", "many", "check-many", "long-service", "long-port",
                                     "touch", "hold-until", "wait-connected", NULL};
        while (i < argc) {
            int is_cmd = 0;
            for (int k = 0; cmds[k]; k++)
                if (strcmp(argv[i], cmds[k]) == 0)
                    is_cmd = 1;
            if (is_cmd)
                break;
            if (argv[i][0] == '=') {
                want = parse_status(argv[i] + 1);
                i++;
                break;
            }
            if (na < 4)
                a[na++] = argv[i];
            i++;
        }
        snprintf(what, sizeof what, "%s %.60s", cmd, a[0] ? a[0] : "");
        int st;
        if (strcmp(cmd, "publish") == 0 && na == 3) {
            st = tide_ns_sync_publish(sync_c, a[0], a[1], a[2], msg, sizeof msg);
            bad = check(what, st, want, msg);
        } else if (strcmp(cmd, "lookup") == 0 && na >= 1) {
            uint32_t wait = na >= 2 ? (uint32_t)strtoul(a[1], NULL, 10) : 0;
            val[0] = '\0';
            st = tide_ns_sync_lookup(sync_c, a[0], wait, val, sizeof val, msg, sizeof msg);
            bad = check(what, st, want, msg);
            if (!bad && st == TIDE_NS_OK) {
                printf("port: %s\n", val);
                if (na >= 3 && strcmp(val, a[2]) != 0) {
                    printf("ns_client: lookup %s gave port %s, expected %s\n", a[0], val, a[2]);
                    bad = 1;
                }
            }
        } else if (strcmp(cmd, "unpublish") == 0 && na == 2) {
            st = tide_ns_sync_unpublish(sync_c, a[0], a[1], msg, sizeof msg);
            bad = check(what, st, want, msg);
        } else if (strcmp(cmd, "unpublish-cred") == 0 && na == 2) {
            uint8_t cred[TIDE_NS_CRED_LEN] = {0};
            if (strcmp(a[1], "held") == 0 || strcmp(a[1], "flipped") == 0) {
                if (tide_ns_held_cred(c, a[0], cred) != 0) {
                    printf("ns_client: no credential held for %s\n", a[0]);
                    bad = 1;
                    continue;
                }
                if (a[1][0] == 'f')
                    cred[TIDE_NS_CRED_LEN / 2] ^= 0x10;
            } else if (tide_unhex(a[1], cred, sizeof cred) != TIDE_NS_CRED_LEN) {
                printf("ns_client: %s is not %d hex-encoded bytes\n", a[1], TIDE_NS_CRED_LEN);
                bad = 2;
                continue;
            }
            st = tide_ns_sync_unpublish_cred(sync_c, a[0], cred, msg, sizeof msg);
            bad = check(what, st, want, msg);
        } else if (strcmp(cmd, "unpublish-owner") == 0 && na >= 1) {
            uint64_t n = 0;
            st = tide_ns_sync_unpublish_owner(sync_c, a[0], &n, msg, sizeof msg);
            bad = check(what, st, want, msg);
            printf("removed: %llu\n", (unsigned long long)n);
            if (!bad && na >= 2 && n != strtoull(a[1], NULL, 10)) {
                printf("ns_client: removed %llu names, expected %s\n", (unsigned long long)n, a[1]);
                bad = 1;
            }
        } else if (strcmp(cmd, "ping") == 0) {
            st = tide_ns_sync_ping(sync_c, msg, sizeof msg);
            bad = check(what, st, want, msg);
        } else if (strcmp(cmd, "status") == 0) {
            st = tide_ns_sync_status(sync_c, val, sizeof val, msg, sizeof msg);
            bad = check(what, st, want, msg);
            if (st == TIDE_NS_OK)
                printf("server: %s\n", val);
        } else if ((strcmp(cmd, "many") == 0 && na == 3) || (strcmp(cmd, "check-many") == 0 && na == 2)) {
            int n = atoi(a[0]);
            struct batch b = {0};
            char svc[128], port[64];
            for (int k = 0; k < n; k++) {
                snprintf(svc, sizeof svc, "%s-%d", a[1], k);
                snprintf(port, sizeof port, "port-of-%s-%d", a[1], k);
                b.pending++;
                if (cmd[0] == 'm') {
                    if (tide_ns_publish(c, svc, port, a[2], batch_cb, &b) != 0)
                        b.pending--, b.failures++;
                } else {
                    struct lookup_check *lc = calloc(1, sizeof *lc);
                    lc->b = &b;
                    snprintf(lc->want, sizeof lc->want, "%s", port);
                    if (tide_ns_lookup(c, svc, 0, lookup_check_cb, lc) != 0)
                        b.pending--, b.failures++, free(lc);
                }
            }
            run_until(&b.pending, NULL, NULL);
            printf("%s %d %s: %d failures\n", cmd, n, a[1], b.failures);
            bad = b.failures != 0;
        } else if ((strcmp(cmd, "long-service") == 0 || strcmp(cmd, "long-port") == 0) && na == 1) {
            size_t n = strtoul(a[0], NULL, 10);
            char *s = malloc(n + 1);
            memset(s, 'x', n);
            s[n] = '\0';
            if (cmd[5] == 's')
                st = tide_ns_sync_publish(sync_c, s, "port", "owner", msg, sizeof msg);
            else
                st = tide_ns_sync_publish(sync_c, "long-port-service", s, "owner", msg, sizeof msg);
            free(s);
            bad = check(what, st, want, msg);
        } else if (strcmp(cmd, "touch") == 0 && na == 1) {
            int fd = open(a[0], O_WRONLY | O_CREAT, 0600);
            if (fd >= 0)
                close(fd);
            fflush(stdout);
        } else if (strcmp(cmd, "hold-until") == 0 && na == 1) {
            run_until(NULL, a[0], NULL);
        } else if (strcmp(cmd, "wait-connected") == 0) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            /* a ping makes the client connect */
            tide_ns_sync_ping(sync_c, msg, sizeof msg);
            for (;;) {
                if (connected_cond())
                    break;
                clock_gettime(CLOCK_MONOTONIC, &t1);
                if ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 > timeout_ms) {
                    printf("ns_client: not connected: %s\n", tide_ns_last_error(c));
                    bad = 1;
                    break;
                }
                struct timeval tick = {0, 20000};
                event_base_loopexit(tide_ns_sync_base(sync_c), &tick);
                event_base_dispatch(tide_ns_sync_base(sync_c));
            }
        } else {
            fprintf(stderr, "ns_client: bad command '%s' (with %d arguments)\n", cmd, na);
            bad = 2;
        }
        fflush(stdout);
    }
    tide_ns_sync_close(sync_c);
    return bad;
}
