/*
 * rank_hostile.c: a hostile client of a rank's TCP listener, holding only
 * a port name the rank opened (tests/security/suite_rank_auth.sh; the
 * target is tests/mpi/rank_auth_target.c). Built with the handshake code
 * of libmpi/transport/tcp_auth.c, common/ctlcrypt.c (a PORT-kind
 * connection is sealed after its handshake, as libmpi's tcp.c does) and
 * -lcrypto.
 *
 *   rank_hostile impersonate PORTFILE RANK  claim to be RANK of the job and
 *       inject a message as it (every way a port name allows); exit 0 when
 *       each attempt was refused
 *   rank_hostile port-peer PORTFILE   authenticate with the port's token as
 *       a process of another job (accepted, the listener proves the token
 *       too), then send an ordinary message: the connection must be closed
 *   rank_hostile silent PORTFILE MAXSEC  connect, say nothing: the rank
 *       must close the connection within MAXSEC seconds
 *   rank_hostile flood PORTFILE N     hold N connections open at once: the
 *       rank's descriptors must stay bounded (auth_max_pending)
 *   rank_hostile garbage PORTFILE     random bytes, absurd lengths, a wrong
 *       proof: each closed at once; then a proper peer still gets in
 *   rank_hostile listen-check PORTFILE  the rank listens on 127.0.0.1 only
 *   rank_hostile memflood PORTFILE MAXMB  as port peers nobody has accepted
 *       (before any MPI_Comm_accept): big frames on the connect/accept
 *       context from a few connections (each must be dropped), many
 *       connections that each leave a little behind and close, then many
 *       at once each holding a little; the rank's resident memory must
 *       grow by less than MAXMB MiB, and some of the last must be dropped
 */
#include "transport/tcp_auth.h"
#include "ctlcrypt.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define OLD_MAGIC 0x54434431u /* the handshake before version 2 */
#define CTX_WORLD 0u
#define CTX_DPM 4u

struct hdr { /* struct tide_hdr */
    uint8_t type, flags;
    uint16_t niov;
    uint32_t ctx;
    int32_t src, tag;
    uint64_t len, sreq, aux;
};

static struct {
    char nspace[256];
    uint32_t rank;
    uint8_t token[16];
    char ip[64];
    int port;
    int pid;
    uint8_t card_token[16];
    int have_card_token;
} P;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int unhex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

/* tide-port:vN|nspace|rank|token|card (read loosely: this is the attacker) */
static void read_port(const char *file)
{
    char buf[2048];
    FILE *f = fopen(file, "r");
    if (!f || !fgets(buf, sizeof buf, f)) {
        fprintf(stderr, "cannot read %s\n", file);
        exit(2);
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    char *save = NULL, *fld[5] = {0};
    char *t = strtok_r(buf, "|", &save);
    for (int i = 0; t && i < 5; i++) {
        fld[i] = t;
        t = strtok_r(NULL, "|", &save);
    }
    if (!fld[4] || unhex(fld[3], P.token, 16) != 0) {
        fprintf(stderr, "not a port name\n");
        exit(2);
    }
    snprintf(P.nspace, sizeof P.nspace, "%s", fld[1]);
    P.rank = (uint32_t)strtoul(fld[2], NULL, 10);
    char *tcp = strstr(fld[4], "tcp="), *pid = strstr(fld[4], "pid="), *tok = strstr(fld[4], "token=");
    if (!tcp || !pid) {
        fprintf(stderr, "the port's card has no TCP address\n");
        exit(2);
    }
    P.pid = atoi(pid + 4);
    /* prefer 127.0.0.1 when listed: the test runs on one host */
    char list[600];
    snprintf(list, sizeof list, "%s", tcp + 4);
    list[strcspn(list, ";")] = '\0';
    for (char *s2 = NULL, *a = strtok_r(list, ",", &s2); a; a = strtok_r(NULL, ",", &s2)) {
        char *colon = strrchr(a, ':');
        if (!colon)
            continue;
        *colon = '\0';
        if (!P.ip[0] || strcmp(a, "127.0.0.1") == 0) {
            snprintf(P.ip, sizeof P.ip, "%s", a);
            P.port = atoi(colon + 1);
        }
    }
    if (tok && unhex(tok + 6, P.card_token, 16) == 0)
        P.have_card_token = 1;
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)P.port)};
    inet_pton(AF_INET, P.ip, &a.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Read exactly n bytes within secs; 0 ok, -1 closed, -2 timed out. */
static int read_n(int fd, void *b, size_t n, double secs)
{
    size_t got = 0;
    double end = now() + secs;
    while (got < n) {
        int ms = (int)((end - now()) * 1000);
        if (ms <= 0)
            return -2;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, ms) <= 0)
            continue;
        ssize_t r = recv(fd, (char *)b + got, n - got, 0);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* Wait for the other end to close: seconds it took, or -1 if it did not
 * within secs. Whatever it sends meanwhile is read and dropped. */
static double wait_closed(int fd, double secs)
{
    double t0 = now(), end = t0 + secs;
    char junk[4096];
    for (;;) {
        int ms = (int)((end - now()) * 1000);
        if (ms <= 0)
            return -1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, ms) <= 0)
            continue;
        ssize_t r = recv(fd, junk, sizeof junk, 0);
        if (r <= 0)
            return now() - t0;
    }
}

static void send_all(int fd, const void *b, size_t n)
{
    ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
    (void)w;
}

/* the keys of the PORT-kind connection v2_hello opened last (NULL: none) */
static struct tide_ctlcrypt *sealer;
/* the keys of each connection memflood holds open, by descriptor */
#define MAX_CONN_FD 4096
static struct tide_ctlcrypt *conn_sealer[MAX_CONN_FD];

/* a frame [u32 len][hdr][int] claiming to come from rank src (sealed on a
 * PORT-kind connection: [u32 len][ciphertext][tag]) */
static void send_frame(int fd, uint32_t ctx, int src, int tag, int value)
{
    uint8_t b[4 + sizeof(struct hdr) + 4];
    struct hdr h = {.type = 1, .ctx = ctx, .src = src, .tag = tag, .len = 4, .sreq = 0};
    uint32_t len = sizeof h + 4;
    memcpy(b, &len, 4);
    memcpy(b + 4, &h, sizeof h);
    memcpy(b + 4 + sizeof h, &value, 4);
    if (!sealer) {
        send_all(fd, b, sizeof b);
        return;
    }
    uint8_t rec[sizeof b - 4 + TIDE_CRYPT_OVERHEAD];
    if (tide_ctlcrypt_seal(sealer, b + 4, sizeof b - 4, rec) == sizeof rec)
        send_all(fd, rec, sizeof rec);
}

/* The old handshake: the connector proves the listener's card token. */
static int old_hello(int fd, const uint8_t nonce_a[16], uint32_t claim)
{
    uint8_t msg[6 + 16 + 256 + 4], mac[32], b[4 + 2 + 2 + 4 + 16 + 32 + 256];
    size_t nl = strlen(P.nspace);
    memcpy(msg, "hello:", 6);
    memcpy(msg + 6, nonce_a, 16);
    memcpy(msg + 22, P.nspace, nl);
    memcpy(msg + 22 + nl, &claim, 4);
    unsigned ml = 32;
    HMAC(EVP_sha256(), P.card_token, 16, msg, 22 + nl + 4, mac, &ml);
    uint32_t magic = OLD_MAGIC;
    memcpy(b, &magic, 4);
    b[4] = 1;
    b[5] = 0;
    b[6] = (uint8_t)nl;
    b[7] = 0;
    memcpy(b + 8, &claim, 4);
    memset(b + 12, 7, 16);
    memcpy(b + 28, mac, 32);
    memcpy(b + 60, P.nspace, nl);
    send_all(fd, b, 60 + nl);
    uint8_t rep[37];
    return read_n(fd, rep, sizeof rep, 5) == 0 && rep[4] == 1 ? 1 : 0;
}

/* A version-2 hello of this kind from `from`, proved with key; returns 1
 * when the listener accepted (and *reply_ok: its proof checked out with
 * key), 0 when refused, and leaves fd open. */
static int v2_hello(int fd, const uint8_t nonce_a[16], int kind, const char *from_ns, uint32_t from_rank,
                    const uint8_t *key, size_t keylen, int *reply_ok)
{
    struct tide_hello h;
    memset(&h, 0, sizeof h);
    h.kind = (uint8_t)kind;
    snprintf(h.from.nspace, sizeof h.from.nspace, "%s", from_ns);
    h.from.rank = from_rank;
    snprintf(h.to.nspace, sizeof h.to.nspace, "%s", P.nspace);
    h.to.rank = P.rank;
    tide_auth_random(h.nonce_c, 16);
    tide_hs_hello_mac(key, keylen, nonce_a, &h, h.mac);
    uint8_t b[TIDE_HS_HELLO_MAX];
    send_all(fd, b, tide_hs_hello_encode(&h, b));
    uint8_t rep[TIDE_HS_REPLY_LEN], mac[32], want[32];
    bool acc;
    if (read_n(fd, rep, sizeof rep, 5) != 0 || tide_hs_reply_decode(rep, sizeof rep, &acc, mac) <= 0)
        return 0;
    tide_hs_reply_mac(key, keylen, nonce_a, &h, acc, want);
    if (reply_ok)
        *reply_ok = memcmp(want, mac, 32) == 0;
    tide_ctlcrypt_free(sealer);
    sealer = NULL;
    if (acc && kind == TIDE_AUTH_PORT) {
        /* both ends proved the token: the keys of tcp.c's conn_seal_keys */
        uint8_t ikm[2 * TIDE_PORT_KEY_LEN], salt[2 * TIDE_NONCE_LEN + TIDE_MAC_LEN];
        memcpy(ikm, key, TIDE_PORT_KEY_LEN);
        memcpy(ikm + TIDE_PORT_KEY_LEN, key, TIDE_PORT_KEY_LEN);
        memcpy(salt, nonce_a, TIDE_NONCE_LEN);
        memcpy(salt + TIDE_NONCE_LEN, h.nonce_c, TIDE_NONCE_LEN);
        memcpy(salt + 2 * TIDE_NONCE_LEN, h.mac, TIDE_MAC_LEN);
        sealer = tide_ctlcrypt_new(ikm, sizeof ikm, salt, sizeof salt, "rank link", TIDE_CRYPT_INITIATOR);
    }
    return acc ? 1 : 0;
}

static int challenge(int fd, uint8_t nonce_a[16], uint32_t *magic)
{
    uint8_t ch[20];
    if (read_n(fd, ch, sizeof ch, 5) != 0)
        return -1;
    memcpy(magic, ch, 4);
    memcpy(nonce_a, ch + 4, 16);
    return 0;
}

/* ---- modes ---- */

static int impersonate(uint32_t claim)
{
    int accepted = 0;
    const char *names[] = {"old handshake with the card's token", "PORT kind with the port's token",
                           "RANK kind keyed with the port's token", "LINK kind keyed with the port's token"};
    for (int a = 0; a < 4; a++) {
        int fd = dial();
        uint8_t nonce[16];
        uint32_t magic;
        if (fd < 0 || challenge(fd, nonce, &magic) != 0) {
            printf("attack %d (%s): no handshake offered\n", a, names[a]);
            if (fd >= 0)
                close(fd);
            continue;
        }
        int ok = 0;
        if (a == 0) {
            if (magic != OLD_MAGIC || !P.have_card_token) {
                printf("attack %d (%s): not possible (no token in the card)\n", a, names[a]);
                close(fd);
                continue;
            }
            ok = old_hello(fd, nonce, claim);
        } else if (magic == TIDE_HS_MAGIC) {
            int kind = a == 1 ? TIDE_AUTH_PORT : a == 2 ? TIDE_AUTH_RANK : TIDE_AUTH_LINK;
            ok = v2_hello(fd, nonce, kind, P.nspace, claim, P.token, 16, NULL);
        }
        if (ok) {
            /* in as rank `claim`: inject what the target waits for from it */
            send_frame(fd, CTX_WORLD, (int)claim, 77, 2989);
            printf("attack %d (%s): ACCEPTED, message injected as rank %u\n", a, names[a], claim);
            accepted++;
            wait_closed(fd, 1);
        } else {
            printf("attack %d (%s): refused\n", a, names[a]);
        }
        close(fd);
    }
    if (accepted == 0)
        printf("impersonate: all refused\n");
    return accepted ? 1 : 0;
}

static int port_peer(void)
{
    int fd = dial();
    uint8_t nonce[16];
    uint32_t magic;
    if (fd < 0 || challenge(fd, nonce, &magic) != 0 || magic != TIDE_HS_MAGIC) {
        printf("port-peer: no version-2 handshake\n");
        return 1;
    }
    int reply_ok = 0;
    if (!v2_hello(fd, nonce, TIDE_AUTH_PORT, "tide.elsewhere.1.0", 3, P.token, 16, &reply_ok) || !reply_ok) {
        printf("port-peer: not accepted with the port's token (reply proof %s)\n", reply_ok ? "ok" : "bad");
        return 1;
    }
    printf("port-peer: accepted with the port's token, the listener proved it too\n");
    /* a DPM-context message is taken (and ignored: it is no request) ... */
    send_frame(fd, CTX_DPM, 0, 12345, 1);
    if (wait_closed(fd, 0.5) >= 0) {
        printf("port-peer: a sealed DPM-context message closed the connection\n");
        close(fd);
        return 1;
    }
    printf("port-peer: a sealed DPM-context message is taken\n");
    /* ... an ordinary one closes the connection */
    send_frame(fd, CTX_WORLD, 1, 77, 2989);
    double t = wait_closed(fd, 5);
    close(fd);
    if (t < 0) {
        printf("port-peer: an ordinary message was taken on a port connection\n");
        return 1;
    }
    printf("port-peer: ordinary message refused (closed after %.2f s)\n", t);
    return 0;
}

static int silent(double maxsec)
{
    int fd = dial();
    if (fd < 0) {
        printf("silent: cannot connect\n");
        return 1;
    }
    double t = wait_closed(fd, maxsec);
    close(fd);
    if (t < 0) {
        printf("silent: still connected after %.1f s\n", maxsec);
        return 1;
    }
    printf("silent: dropped after %.2f s\n", t);
    return 0;
}

static int count_fds(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static int flood(int n)
{
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < (rlim_t)n + 64) {
        rl.rlim_cur = rl.rlim_max < (rlim_t)n + 64 ? rl.rlim_max : (rlim_t)n + 64;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    int before = count_fds(P.pid);
    int *fds = calloc((size_t)n, sizeof *fds), opened = 0, peak = before;
    for (int i = 0; i < n; i++) {
        fds[i] = dial();
        if (fds[i] >= 0)
            opened++;
        if (i % 50 == 49) {
            int c = count_fds(P.pid);
            if (c > peak)
                peak = c;
        }
    }
    /* the rank takes the backlog in as it progresses: watch it settle */
    int after = count_fds(P.pid);
    for (int k = 0; k < 200 && after > before + 80; k++) {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
        after = count_fds(P.pid);
        if (after > peak)
            peak = after;
    }
    if (after > peak)
        peak = after;
    for (int i = 0; i < n; i++)
        port_close(fds[i]);
    free(fds);
    printf("flood: %d connections held; rank's descriptors before %d, peak %d, at the end %d\n", opened, before,
           peak, after);
    return before >= 0 && peak <= before + 64 + 24 ? 0 : 1;
}

static int garbage(void)
{
    int bad = 0;
    /* each of these must be closed by the rank long before auth_timeout */
    for (int k = 0; k < 5; k++) {
        int fd = dial();
        uint8_t nonce[16];
        uint32_t magic;
        if (fd < 0 || challenge(fd, nonce, &magic) != 0) {
            printf("garbage %d: no challenge\n", k);
            bad++;
            if (fd >= 0)
                close(fd);
            continue;
        }
        uint8_t b[1 << 16];
        size_t n = 0;
        const char *what = "";
        if (k == 0) {
            srand(7);
            for (size_t i = 0; i < 4096; i++)
                b[i] = (uint8_t)rand();
            n = 4096;
            what = "random bytes";
        } else if (k == 1) {
            memset(b, 0x7f, 8); /* an absurd frame length before any hello */
            n = 8;
            what = "absurd length prefix";
        } else if (k == 2) {
            /* a version-2 header whose names are absurdly long (zero, then 255
             * of garbage with a NUL): malformed */
            struct tide_hello h;
            memset(&h, 0, sizeof h);
            snprintf(h.from.nspace, sizeof h.from.nspace, "x");
            snprintf(h.to.nspace, sizeof h.to.nspace, "%s", P.nspace);
            n = tide_hs_hello_encode(&h, b);
            b[6] = 0;
            what = "empty name";
        } else if (k == 3) {
            struct tide_hello h;
            memset(&h, 0, sizeof h);
            h.kind = TIDE_AUTH_PORT;
            snprintf(h.from.nspace, sizeof h.from.nspace, "tide.elsewhere.2.0");
            snprintf(h.to.nspace, sizeof h.to.nspace, "%s", P.nspace);
            memset(h.mac, 0x55, sizeof h.mac);
            n = tide_hs_hello_encode(&h, b);
            what = "wrong proof";
        } else {
            memset(b, 0, sizeof b);
            n = sizeof b;
            what = "64 KiB of zeros";
        }
        send_all(fd, b, n);
        double t = wait_closed(fd, 2.0);
        close(fd);
        printf("garbage %d (%s): %s\n", k, what, t >= 0 ? "closed at once" : "NOT closed within 2 s");
        if (t < 0)
            bad++;
    }
    int rc = port_peer();
    return bad || rc ? 1 : 0;
}

static int listen_check(void)
{
    /* the rank's socket inodes, then its listening sockets in /proc/net/tcp */
    char path[128], link[128];
    snprintf(path, sizeof path, "/proc/%d/fd", P.pid);
    DIR *d = opendir(path);
    if (!d) {
        printf("listen-check: cannot read %s\n", path);
        return 1;
    }
    unsigned long inodes[1024];
    int ni = 0;
    for (struct dirent *e; (e = readdir(d)) && ni < 1024;) {
        char fp[400];
        snprintf(fp, sizeof fp, "%s/%s", path, e->d_name);
        ssize_t l = readlink(fp, link, sizeof link - 1);
        if (l <= 0)
            continue;
        link[l] = '\0';
        unsigned long ino;
        if (sscanf(link, "socket:[%lu]", &ino) == 1)
            inodes[ni++] = ino;
    }
    closedir(d);
    FILE *f = fopen("/proc/net/tcp", "r");
    char line[512];
    int listening = 0, wide = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned la, lp, st;
        unsigned long ino;
        if (sscanf(line, " %*d: %x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x %*u %*u %lu", &la, &lp, &st, &ino) != 4 ||
            st != 0x0A)
            continue;
        for (int i = 0; i < ni; i++)
            if (inodes[i] == ino) {
                struct in_addr a = {.s_addr = la};
                printf("listen-check: the rank listens on %s:%u\n", inet_ntoa(a), lp);
                listening++;
                if (la != htonl(INADDR_LOOPBACK))
                    wide++;
            }
    }
    if (f)
        fclose(f);
    return listening > 0 && wide == 0 ? 0 : 1;
}

/* ---- memflood ---- */

static long rss_kb(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

/* A connection authenticated with the port's token as rank `rank` of a
 * process group of another job; -1 if the rank would not have it. */
static int port_conn(const char *nspace, uint32_t rank)
{
    int fd = dial();
    uint8_t nonce[16];
    uint32_t magic;
    if (fd < 0)
        return -1;
    struct timeval tv = {10, 0}; /* a send the rank stops reading gives up */
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int reply_ok = 0;
    if (challenge(fd, nonce, &magic) != 0 || magic != TIDE_HS_MAGIC ||
        !v2_hello(fd, nonce, TIDE_AUTH_PORT, nspace, rank, P.token, 16, &reply_ok) || !reply_ok ||
        fd >= MAX_CONN_FD) {
        close(fd);
        return -1;
    }
    conn_sealer[fd] = sealer; /* this connection's own from now on */
    sealer = NULL;
    return fd;
}

static void port_close(int fd)
{
    if (fd < 0)
        return;
    tide_ctlcrypt_free(conn_sealer[fd]);
    conn_sealer[fd] = NULL;
    close(fd);
}

/* An eager frame of plen bytes on the connect/accept context, sealed as
 * the connection's keys say (scratch: the payload after room for the
 * length and header; sealed: room for the record); 0 when all of it was
 * written, -1 when the rank closed the connection. */
static int send_dpm(int fd, int tag, size_t plen, uint8_t *scratch, uint8_t *sealed)
{
    struct hdr h = {.type = 1, .ctx = CTX_DPM, .src = 0, .tag = tag, .len = plen, .sreq = 0};
    uint32_t len = (uint32_t)(sizeof h + plen);
    memcpy(scratch, &len, 4);
    memcpy(scratch + 4, &h, sizeof h);
    const uint8_t *out = scratch;
    size_t total = 4 + sizeof h + plen, done = 0;
    if (conn_sealer[fd]) {
        total = tide_ctlcrypt_seal(conn_sealer[fd], scratch + 4, sizeof h + plen, sealed);
        if (total == 0)
            return -1;
        out = sealed;
    }
    while (done < total) {
        ssize_t w = send(fd, out + done, total - done, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

static int memflood(long max_mb)
{
    const size_t big = 8u << 20;
    uint8_t *buf = calloc(1, 4 + sizeof(struct hdr) + big);
    uint8_t *sealed = malloc(sizeof(struct hdr) + big + TIDE_CRYPT_OVERHEAD);
    if (!buf || !sealed)
        return 2;
    memset(buf + 4 + sizeof(struct hdr), 0x5a, big);
    long base = rss_kb(P.pid), peak = base;
    int bad = 0;
    char ns[64];
    /* an idle peer kept open throughout: the rank then watches its
     * listener on every pass */
    int anchor = port_conn("tide.memflood-anchor.1.0", 0);
    if (anchor < 0) {
        printf("memflood: the port's token is not accepted\n");
        return 1;
    }
    /* 1: big frames from 4 connections, 8 of 8 MiB each */
    int fds[4];
    for (int i = 0; i < 4; i++) {
        snprintf(ns, sizeof ns, "tide.memflood-big.%d.0", i);
        fds[i] = port_conn(ns, 0);
    }
    size_t sent = 0;
    for (int k = 0; k < 8; k++)
        for (int i = 0; i < 4; i++)
            if (fds[i] >= 0 && send_dpm(fds[i], 1000 + k, big, buf, sealed) == 0)
                sent += big;
    int dropped = 0;
    for (int i = 0; i < 4; i++) {
        if (fds[i] >= 0 && wait_closed(fds[i], 5) >= 0)
            dropped++;
        port_close(fds[i]);
        long r = rss_kb(P.pid);
        peak = r > peak ? r : peak;
    }
    printf("memflood: big frames: %zu MiB taken from 4 connections, %d of 4 dropped; rank's RSS %ld -> %ld kB\n",
           sent >> 20, dropped, base, rss_kb(P.pid));
    if (dropped != 4)
        bad++;
    /* 2: 2000 connections, each leaving 4 messages of 3 KiB and closing */
    int left = 0;
    for (int b = 0; b < 80; b++) {
        int f[25];
        for (int i = 0; i < 25; i++) {
            snprintf(ns, sizeof ns, "tide.memflood-churn.%d.0", b * 25 + i);
            f[i] = port_conn(ns, 0);
            for (int k = 0; f[i] >= 0 && k < 4; k++)
                if (send_dpm(f[i], 2000 + k, 3072, buf, sealed) == 0)
                    left++;
        }
        for (int i = 0; i < 25; i++)
            port_close(f[i]);
        long r = rss_kb(P.pid);
        peak = r > peak ? r : peak;
    }
    printf("memflood: churn: %d messages of 3 KiB left by 2000 closed connections; rank's RSS %ld kB\n", left,
           rss_kb(P.pid));
    /* 3: 48 connections at once, each holding 12 KiB: more than all
     * unaccepted port peers together may make the rank hold */
    int many[48], held = 0;
    for (int i = 0; i < 48; i++) {
        snprintf(ns, sizeof ns, "tide.memflood-many.%d.0", i);
        many[i] = port_conn(ns, 0);
        for (int k = 0; many[i] >= 0 && k < 4; k++)
            if (send_dpm(many[i], 3000 + k, 3072, buf, sealed) == 0)
                held++;
    }
    int closed = 0;
    for (int i = 0; i < 48; i++) {
        if (many[i] >= 0 && wait_closed(many[i], i == 0 ? 3 : 0.2) >= 0)
            closed++;
        port_close(many[i]);
    }
    printf("memflood: 48 connections holding 12 KiB each: %d of them dropped\n", closed);
    if (closed == 0)
        bad++;
    port_close(anchor);
    long end = rss_kb(P.pid);
    peak = end > peak ? end : peak;
    printf("memflood: rank's RSS before %ld kB, peak %ld kB, at the end %ld kB (bound: +%ld MiB)\n", base, peak, end,
           max_mb);
    if (base < 0 || peak - base > max_mb * 1024)
        bad++;
    free(buf);
    free(sealed);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rank_hostile MODE PORTFILE [ARG]\n");
        return 2;
    }
    read_port(argv[2]);
    const char *m = argv[1];
    if (strcmp(m, "impersonate") == 0)
        return impersonate(argc > 3 ? (uint32_t)atoi(argv[3]) : 1);
    if (strcmp(m, "port-peer") == 0)
        return port_peer();
    if (strcmp(m, "silent") == 0)
        return silent(argc > 3 ? atof(argv[3]) : 5);
    if (strcmp(m, "flood") == 0)
        return flood(argc > 3 ? atoi(argv[3]) : 1000);
    if (strcmp(m, "garbage") == 0)
        return garbage();
    if (strcmp(m, "listen-check") == 0)
        return listen_check();
    if (strcmp(m, "memflood") == 0)
        return memflood(argc > 3 ? atol(argv[3]) : 16);
    fprintf(stderr, "unknown mode %s\n", m);
    return 2;
}
