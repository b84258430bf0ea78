/*
 * boot.c: how a node daemon of another host joins its job. The launch
 * agent (ssh, srun, ...) starts it with `--hub ADDRESSES --boot-stdin`;
 * mpiexec writes on its stdin the job's control secret and the runtime
 * parameters of the job (never in argv or in an environment a rank sees):
 *
 *   tide-boot 1
 *   secret <64 hex digits>
 *   tree <radix>:<node>,<node>,... (the tree of daemons, ctltree.h; optional)
 *   agent <command>, host <node> <name> (to start our children in the tree)
 *   param TIDE_<NAME>=<VALUE>      (any number)
 *   <empty line>
 *
 * (written by common/agentexec.c).
 *
 * The daemon then connects to the first address that answers (mpiexec,
 * or its parent in the tree) and proves
 * itself with the secret (ctlauth.h) before the control channel starts;
 * the channel is encrypted with the keys that exchange gives (ctlcrypt.h).
 */
#include "tided.h"
#include "ctlauth.h"
#include "log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BOOT_MAX (1 << 20)

/* what the boot data says about starting our children in the tree */
static char *agent;
static char **host_of; /* by node */
static int nhost_of;

const char *boot_agent(void)
{
    return agent;
}

const char *boot_host(int node)
{
    return node >= 0 && node < nhost_of ? host_of[node] : NULL;
}

static int add_host(const char *line)
{
    char *end;
    long node = strtol(line, &end, 10);
    if (end == line || *end != ' ' || node < 0 || node > (1 << 24) || !end[1] || strchr(end + 1, ' '))
        return -1;
    if (node >= nhost_of) {
        int n = (int)node + 1;
        char **h = realloc(host_of, (size_t)n * sizeof *h);
        if (!h)
            return -1;
        memset(h + nhost_of, 0, (size_t)(n - nhost_of) * sizeof *h);
        host_of = h;
        nhost_of = n;
    }
    free(host_of[node]);
    host_of[node] = strdup(end + 1);
    return host_of[node] ? 0 : -1;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Read stdin up to the empty line that ends the boot data. */
static int read_boot(char *buf, size_t cap, int timeout_ms, char *err, size_t errlen)
{
    size_t have = 0;
    long deadline = now_ms() + timeout_ms;
    for (;;) {
        buf[have] = '\0';
        if (strstr(buf, "\n\n"))
            return 0;
        long left = deadline - now_ms();
        struct pollfd p = {.fd = 0, .events = POLLIN};
        int r = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            snprintf(err, errlen, "no boot data on stdin within %d s", timeout_ms / 1000);
            return -1;
        }
        if (r < 0 || have + 1 >= cap) {
            snprintf(err, errlen, "boot data unreadable or too long");
            return -1;
        }
        ssize_t n = read(0, buf + have, cap - 1 - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(err, errlen, "stdin closed before the boot data ended");
            return -1;
        }
        have += (size_t)n;
    }
}

int boot_read_stdin(uint8_t secret[TIDE_CTL_SECRET_LEN], char **tree, char *err, size_t errlen)
{
    *tree = NULL;
    char *buf = malloc(BOOT_MAX);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = read_boot(buf, BOOT_MAX, 30000, err, errlen);
    bool have_secret = false, have_magic = false;
    char *save = NULL;
    for (char *line = rc == 0 ? strtok_r(buf, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        if (strcmp(line, "tide-boot 1") == 0) {
            have_magic = true;
        } else if (strncmp(line, "secret ", 7) == 0) {
            have_secret = tide_ctlauth_unhex(line + 7, secret) == 0;
        } else if (strncmp(line, "tree ", 5) == 0 && !*tree) {
            *tree = strdup(line + 5);
        } else if (strncmp(line, "agent ", 6) == 0 && !agent) {
            agent = strdup(line + 6);
        } else if (strncmp(line, "host ", 5) == 0 && add_host(line + 5) == 0) {
            continue;
        } else if (strncmp(line, "param TIDE_", 11) == 0 && strchr(line, '=')) {
            char *eq = strchr(line, '=');
            *eq = '\0';
            setenv(line + 6, eq + 1, 1);
        } else {
            snprintf(err, errlen, "unexpected boot line '%.40s'", line);
            rc = -1;
            break;
        }
    }
    memset(buf, 0, BOOT_MAX);
    free(buf);
    if (rc == 0 && (!have_magic || !have_secret)) {
        snprintf(err, errlen, "boot data without %s", have_magic ? "a valid secret" : "its header");
        rc = -1;
    }
    if (rc != 0) {
        free(*tree);
        *tree = NULL;
    }
    /* the ranks must not inherit whatever the agent connected to stdin */
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    return rc;
}

/* Connect to ip:port within timeout_ms; the socket stays blocking. */
static int connect_one(const char *addr, int timeout_ms)
{
    char host[64];
    const char *colon = strrchr(addr, ':');
    if (!colon || (size_t)(colon - addr) >= sizeof host)
        return -1;
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = '\0';
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    if (poll(&p, 1, timeout_ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int boot_connect(const char *addresses, const uint8_t secret[TIDE_CTL_SECRET_LEN], struct tide_ctlcrypt **crypt,
                 char *err, size_t errlen)
{
    char list[1024];
    snprintf(list, sizeof list, "%s", addresses);
    char why[256] = "no address to connect to";
    char *save = NULL;
    for (char *a = strtok_r(list, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
        int fd = connect_one(a, 5000);
        if (fd < 0) {
            snprintf(why, sizeof why, "cannot connect to %s: %s", a, strerror(errno ? errno : ECONNREFUSED));
            continue;
        }
        if (tide_ctlauth_connect(fd, secret, (uint32_t)tided.node, 10000, crypt, why, sizeof why) != 0) {
            close(fd);
            continue;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        return fd;
    }
    snprintf(err, errlen, "cannot reach mpiexec (%s): %s", addresses, why);
    return -1;
}
