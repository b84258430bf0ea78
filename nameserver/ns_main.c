/*
 * ns_main.c: tide-nameserver's entry point. Parses the options, sets up
 * the mode (TLS over TCP with a URI file, or the per-user default service
 * on a unix socket, started on demand by clients and guarded by a lock so
 * only one runs), loads the saved table, detaches if asked, runs the
 * libevent loop until a signal or the idle timeout, and on the way out
 * saves the table and removes every file it made.
 */
#include "nameserver.h"
#include "fdutil.h"
#include "safefs.h"
#include "log.h"
#include "params.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>
#include <openssl/crypto.h>

#define DEFAULT_USER_IDLE_EXIT 30

struct options {
    const char *uri_file, *secret_file, *listen, *persist, *log_file;
    int port; /* -1: not given */
    int daemonize, verbose, user_default, idle_exit;
    long max_names;
    double auth_timeout; /* seconds */
    long max_pending;
};

static struct ns_server srv;
static int ready_fd = -1; /* --daemonize: tells the waiting parent we are up */

/* files to remove at exit */
static char uri_path[4096];
static dev_t uri_dev;
static ino_t uri_ino;
static char sock_path[108], lock_path[4096], user_dir[4096];
static int lock_fd = -1, user_dir_ours;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tide-nameserver [options]\n"
            "Holds published names (MPI_Publish_name / MPI_Lookup_name) shared by separate\n"
            "mpiexec jobs: run it, then give each job  mpiexec --nameserver @URI_FILE\n"
            "  --uri-file FILE      write the URI and the secret here (mode 0600)\n"
            "  --secret-file FILE   the secret clients must know (default: a random one)\n"
            "  --port N             TCP port (default: any free port)\n"
            "  --listen ADDR        address to listen on (default: every interface)\n"
            "  --persist FILE       keep the table (and the URI) across restarts in FILE\n"
            "  --daemonize          detach once ready (the default)\n"
            "  --no-daemonize       stay in the foreground\n"
            "  --user-default       the per-user default service on a unix socket\n"
            "                       (clients start it when they need it)\n"
            "  --idle-exit SECONDS  exit after this long with no names and no clients\n"
            "                       (default: never; %d with --user-default)\n"
            "  --max-names N        refuse to hold more names (default: 1000000)\n"
            "  --auth-timeout SECONDS  time a client has to authenticate before it is\n"
            "                       dropped (default: the auth_timeout parameter, 3)\n"
            "  --max-pending N      connections kept that have not authenticated yet;\n"
            "                       beyond, the oldest is dropped (default: the\n"
            "                       auth_max_pending parameter, 64)\n"
            "  --log-file FILE      where a detached server writes its log\n"
            "  --verbose, -v        say more (repeat for more)\n",
            DEFAULT_USER_IDLE_EXIT);
}

static void tell_parent(char status)
{
    if (ready_fd >= 0) {
        ssize_t w = write(ready_fd, &status, 1);
        (void)w;
        close(ready_fd);
        ready_fd = -1;
    }
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tide_error("%s", buf);
    tell_parent('1');
    exit(1);
}

/* ---- daemonizing ---- */

/* Fork; the parent waits until the child says it is ready (or failed) and
 * exits with that status, so "tide-nameserver --uri-file F" returns with F
 * in place. */
static void daemonize(void)
{
    int p[2];
    if (pipe(p) != 0)
        die("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid > 0) {
        close(p[1]);
        char st = '1';
        ssize_t n;
        do
            n = read(p[0], &st, 1);
        while (n < 0 && errno == EINTR);
        _exit(n == 1 && st == '0' ? 0 : 1);
    }
    close(p[0]);
    tide_fd_cloexec(p[1]);
    ready_fd = p[1];
    setsid();
}

static void detach_stdio(const char *log_file)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
    }
    /* never through a symlink, and only a regular file of ours */
    int log = log_file ? open(log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600) : -1;
    if (log >= 0 && tide_safe_check_file(log) != 0) {
        close(log);
        log = -1;
    }
    if (log >= 0) {
        dup2(log, STDERR_FILENO);
        close(log);
    } else if (null >= 0) {
        dup2(null, STDERR_FILENO);
    }
    if (null > STDERR_FILENO)
        close(null);
    if (chdir("/") != 0)
        tide_error("chdir /: %s", strerror(errno));
}

/* ---- the URI file ---- */

static void write_uri_file(const char *path, const char *uri)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0 && tide_safe_check_file(fd) != 0) {
        close(fd);
        fd = -1;
    }
    if (fd < 0)
        die("cannot write the URI file %s: %s", tmp, strerror(errno));
    fchmod(fd, 0600);
    char buf[8192];
    int n;
    if (srv.id.secret_len && !srv.user_mode) {
        char hex[2 * TIDE_NS_SECRET_MAX + 1];
        tide_hex(srv.id.secret, srv.id.secret_len, hex);
        n = snprintf(buf, sizeof buf, "%s\nsecret=%s\npid=%d\n", uri, hex, (int)getpid());
        OPENSSL_cleanse(hex, sizeof hex);
    } else {
        n = snprintf(buf, sizeof buf, "%s\npid=%d\n", uri, (int)getpid());
    }
    int bad = n < 0 || (size_t)n >= sizeof buf || tide_write_all(fd, buf, (size_t)n) != 0 || fsync(fd) != 0;
    OPENSSL_cleanse(buf, sizeof buf);
    struct stat st;
    if (fstat(fd, &st) == 0) {
        uri_dev = st.st_dev;
        uri_ino = st.st_ino;
    }
    if (close(fd) != 0 || bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        die("cannot write the URI file %s: %s", path, strerror(e));
    }
    snprintf(uri_path, sizeof uri_path, "%s", path);
}

static void remove_uri_file(void)
{
    struct stat st;
    /* only if it is still ours (a newer server may have replaced it) */
    if (uri_path[0] && stat(uri_path, &st) == 0 && st.st_dev == uri_dev && st.st_ino == uri_ino)
        unlink(uri_path);
    uri_path[0] = '\0';
}

/* ---- listening ---- */

static int is_wildcard(const char *a)
{
    return !a || !*a || strcmp(a, "*") == 0 || strcmp(a, "0.0.0.0") == 0 || strcmp(a, "::") == 0;
}

static int bind_tcp(const char *addr, int port, char *err, size_t errlen)
{
    char ports[16];
    snprintf(ports, sizeof ports, "%d", port);
    const char *host = is_wildcard(addr) ? NULL : addr;
    const char *tries[2] = {host, NULL};
    int ntries = 1;
    if (!host) { /* dual-stack first, then IPv4 only */
        tries[0] = "::";
        tries[1] = "0.0.0.0";
        ntries = 2;
    }
    int last = 0;
    for (int t = 0; t < ntries; t++) {
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res = NULL;
        int g = getaddrinfo(tries[t], ports, &hints, &res);
        if (g != 0) {
            snprintf(err, errlen, "cannot resolve %s: %s", tries[t], gai_strerror(g));
            continue;
        }
        for (struct addrinfo *a = res; a; a = a->ai_next) {
            int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
            if (fd < 0)
                continue;
            int one = 1, zero = 0;
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (a->ai_family == AF_INET6 && !host)
                setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
            if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 128) == 0) {
                freeaddrinfo(res);
                return fd;
            }
            last = errno;
            close(fd);
        }
        freeaddrinfo(res);
        snprintf(err, errlen, "cannot listen on %s port %d: %s", addr ? addr : "every interface", port,
                 strerror(last));
    }
    return -1;
}

static unsigned bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t l = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &l) != 0)
        return 0;
    if (ss.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return 0;
}

/* The per-user service: take the lock (or find another server holding it),
 * then bind the socket. Returns the listening fd, or -1 when another
 * server already runs (nothing to do). */
static int setup_user(void)
{
    char err[512];
    const char *env = getenv("TIDE_NS_DIR");
    for (int attempt = 0;; attempt++) {
        if (attempt == 20)
            die("cannot take the name service lock %s", lock_path);
        if (tide_ns_user_paths(sock_path, sizeof sock_path, lock_path, sizeof lock_path, 1, err,
                               sizeof err) != 0)
            die("%s", err);
        if (lock_fd < 0) {
            /* in a private directory (tide_ns_user_paths checked it); the
             * file shared by competing servers, so not exclusive */
            lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
            if (lock_fd >= 0 && tide_safe_check_file(lock_fd) != 0)
                die("refusing the lock file %s: not a regular file of yours", lock_path);
            if (lock_fd < 0) {
                if (errno == ENOENT) /* an exiting server removed the directory: again */
                    continue;
                die("cannot open %s: %s", lock_path, strerror(errno));
            }
        }
        if (flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                TIDE_DEBUG(1, "another tide-nameserver already serves this user (%s)", sock_path);
                close(lock_fd);
                lock_fd = -1;
                return -1;
            }
            die("cannot lock %s: %s", lock_path, strerror(errno));
        }
        /* the file we locked must still be the one at the path (an exiting
         * server unlinks it while holding the lock) */
        struct stat a, b;
        if (fstat(lock_fd, &a) == 0 && stat(lock_path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino)
            break;
        close(lock_fd);
        lock_fd = -1;
    }
    char path_copy[sizeof sock_path];
    snprintf(path_copy, sizeof path_copy, "%s", sock_path);
    snprintf(user_dir, sizeof user_dir, "%s", dirname(path_copy)); /* not in place: they would overlap */
    user_dir_ours = !(env && *env);
    tide_safe_unlink(sock_path); /* a stale socket of a server that died: we hold the lock */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        die("socket: %s", strerror(errno));
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    snprintf(sun.sun_path, sizeof sun.sun_path, "%s", sock_path);
    mode_t old = umask(077);
    int rc = bind(fd, (struct sockaddr *)&sun, sizeof sun);
    umask(old);
    if (rc != 0 || listen(fd, 128) != 0)
        die("cannot listen on %s: %s", sock_path, strerror(errno));
    chmod(sock_path, 0600);
    return fd;
}

static void cleanup_user(void)
{
    if (lock_fd < 0)
        return;
    /* order matters: the socket first, then the lock file while still
     * holding it, so a new server never binds next to a live one */
    tide_safe_unlink(sock_path);
    tide_safe_unlink(lock_path);
    if (user_dir_ours)
        rmdir(user_dir);
    close(lock_fd);
    lock_fd = -1;
}

/* ---- signals ---- */

static void signal_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    TIDE_DEBUG(1, "signal %d: exiting", (int)sig);
    event_base_loopexit(srv.base, NULL);
}

static void parse(int argc, char **argv, struct options *o)
{
    static const struct option opts[] = {
        {"uri-file", required_argument, NULL, 'u'},
        {"secret-file", required_argument, NULL, 's'},
        {"port", required_argument, NULL, 'p'},
        {"listen", required_argument, NULL, 'l'},
        {"persist", required_argument, NULL, 'P'},
        {"daemonize", no_argument, NULL, 'd'},
        {"no-daemonize", no_argument, NULL, 'D'},
        {"user-default", no_argument, NULL, 'U'},
        {"idle-exit", required_argument, NULL, 'i'},
        {"max-names", required_argument, NULL, 'm'},
        {"auth-timeout", required_argument, NULL, 'A'},
        {"max-pending", required_argument, NULL, 'M'},
        {"log-file", required_argument, NULL, 'L'},
        {"verbose", optional_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->port = -1;
    o->daemonize = 1;
    o->idle_exit = -1;
    o->max_names = 1000000;
    /* defaults from Tide's parameters (tide.conf, TIDE_AUTH_TIMEOUT, ...) */
    char perr[512];
    tide_config_load(NULL, perr, sizeof perr);
    o->auth_timeout = strtod(tide_config_get("auth_timeout"), NULL);
    o->max_pending = (long)tide_config_int("auth_max_pending");
    if (o->auth_timeout <= 0)
        o->auth_timeout = 3;
    if (o->max_pending <= 0)
        o->max_pending = 64;
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "v", opts, NULL)) != -1) {
        switch (c) {
        case 'u': o->uri_file = optarg; break;
        case 's': o->secret_file = optarg; break;
        case 'p':
            o->port = (int)strtol(optarg, &end, 10);
            if (*end || o->port < 0 || o->port > 65535) {
                fprintf(stderr, "tide-nameserver: bad --port '%s'\n", optarg);
                exit(2);
            }
            break;
        case 'l': o->listen = optarg; break;
        case 'P': o->persist = optarg; break;
        case 'd': o->daemonize = 1; break;
        case 'D': o->daemonize = 0; break;
        case 'U': o->user_default = 1; break;
        case 'i':
            o->idle_exit = (int)strtol(optarg, &end, 10);
            if (*end || o->idle_exit < 0) {
                fprintf(stderr, "tide-nameserver: bad --idle-exit '%s'\n", optarg);
                exit(2);
            }
            break;
        case 'm':
            o->max_names = strtol(optarg, &end, 10);
            if (*end || o->max_names <= 0) {
                fprintf(stderr, "tide-nameserver: bad --max-names '%s'\n", optarg);
                exit(2);
            }
            break;
        case 'A':
            o->auth_timeout = strtod(optarg, &end);
            if (*end || !(o->auth_timeout > 0) || o->auth_timeout > 86400) {
                fprintf(stderr, "tide-nameserver: bad --auth-timeout '%s' (seconds, > 0)\n", optarg);
                exit(2);
            }
            break;
        case 'M':
            o->max_pending = strtol(optarg, &end, 10);
            if (*end || o->max_pending <= 0 || o->max_pending > 100000) {
                fprintf(stderr, "tide-nameserver: bad --max-pending '%s'\n", optarg);
                exit(2);
            }
            break;
        case 'L': o->log_file = optarg; break;
        case 'v': o->verbose = optarg ? atoi(optarg) : o->verbose + 1; break;
        case 'h': usage(stdout); exit(0);
        default: usage(stderr); exit(2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "tide-nameserver: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        exit(2);
    }
    if (o->user_default && (o->port >= 0 || o->listen || o->secret_file)) {
        fprintf(stderr, "tide-nameserver: --user-default uses a private unix socket: --port, "
                        "--listen and --secret-file do not apply\n");
        exit(2);
    }
    if (o->user_default && o->persist) {
        fprintf(stderr, "tide-nameserver: --persist does not apply to --user-default (its names "
                        "end with the connections that published them)\n");
        exit(2);
    }
    if (o->idle_exit < 0)
        o->idle_exit = o->user_default ? DEFAULT_USER_IDLE_EXIT : 0;
}

int main(int argc, char **argv)
{
    struct options o;
    parse(argc, argv, &o);
    tide_log_init("tide-nameserver", o.verbose);
    signal(SIGPIPE, SIG_IGN);
    char err[1024];

    /* validate what can be checked before detaching, so errors reach the terminal */
    uint8_t secret[TIDE_NS_SECRET_MAX];
    size_t secret_len = 0;
    if (o.secret_file && tide_ns_secret_load(o.secret_file, secret, &secret_len, err, sizeof err) != 0)
        die("%s", err);
    if (o.daemonize)
        daemonize();

    srv.user_mode = o.user_default;
    srv.idle_exit = o.idle_exit;
    srv.max_conns = 1000;
    srv.auth_timeout_ms = (int)(o.auth_timeout * 1000);
    srv.max_pending = (size_t)o.max_pending;
    srv.persist_path = o.persist;
    uint64_t seed;
    if (tide_ns_random(&seed, sizeof seed) != 0)
        die("no random numbers");
    srv.table = ns_table_new((size_t)o.max_names, seed);
    if (!srv.table)
        die("out of memory");

    int lfd = -1;
    if (o.user_default) {
        lfd = setup_user();
        if (lfd < 0) { /* another server is up: nothing to do */
            tell_parent('0');
            return 0;
        }
    }
    if (o.persist) {
        int rc = ns_persist_load(o.persist, srv.table, &srv.id, err, sizeof err);
        if (rc < 0) {
            cleanup_user();
            die("%s (move it away to start with an empty table)", err);
        }
        if (rc > 0)
            TIDE_DEBUG(1, "restored %zu names from %s", ns_table_count(srv.table), o.persist);
    }
    char uri[1024];
    struct {
        struct tide_ns_uri u;
    } h;
    memset(&h, 0, sizeof h);
    if (o.user_default) {
        h.u.kind = TIDE_NS_URI_UNIX;
        snprintf(h.u.path, sizeof h.u.path, "%s", sock_path);
    } else {
        if (secret_len) {
            memcpy(srv.id.secret, secret, secret_len);
            srv.id.secret_len = secret_len;
        } else if (srv.id.secret_len == 0) {
            srv.id.secret_len = 32;
            if (tide_ns_random(srv.id.secret, srv.id.secret_len) != 0)
                die("no random numbers");
        }
        if (ns_tls_setup(&srv, err, sizeof err) != 0)
            die("%s", err);
        int port = o.port >= 0 ? o.port : (int)srv.id.port;
        lfd = bind_tcp(o.listen, port, err, sizeof err);
        if (lfd < 0 && o.port < 0 && port != 0) {
            tide_error("%s; taking another port (clients reading the URI file follow)", err);
            lfd = bind_tcp(o.listen, 0, err, sizeof err);
        }
        if (lfd < 0)
            die("%s", err);
        srv.id.port = bound_port(lfd);
        h.u.kind = TIDE_NS_URI_TCP;
        h.u.port = srv.id.port;
        memcpy(h.u.fingerprint, srv.fingerprint, sizeof h.u.fingerprint);
        if (!is_wildcard(o.listen))
            snprintf(h.u.host, sizeof h.u.host, "%s", o.listen);
        else if (gethostname(h.u.host, sizeof h.u.host - 1) != 0)
            snprintf(h.u.host, sizeof h.u.host, "localhost");
    }
    OPENSSL_cleanse(secret, sizeof secret);
    if (tide_ns_uri_format(&h.u, uri, sizeof uri) != 0)
        die("URI too long");
    if (o.persist) {
        /* store the identity now, so a restart keeps the URI even with no names yet */
        if (ns_persist_save(o.persist, srv.table, &srv.id, err, sizeof err) != 0)
            die("%s", err);
    }

    srv.base = event_base_new();
    if (!srv.base || ns_server_start(&srv, lfd) != 0)
        die("cannot set up the event loop");
    struct event *sigs[3];
    int signums[3] = {SIGTERM, SIGINT, SIGHUP};
    for (int i = 0; i < 3; i++) {
        sigs[i] = evsignal_new(srv.base, signums[i], signal_cb, NULL);
        event_add(sigs[i], NULL);
    }
    if (o.uri_file)
        write_uri_file(o.uri_file, uri);
    TIDE_DEBUG(1, "serving %s (pid %d)", uri, (int)getpid());
    if (!o.daemonize && !o.uri_file && !o.user_default) {
        printf("%s\n", uri);
        fflush(stdout);
    }
    if (o.daemonize)
        detach_stdio(o.log_file);
    tell_parent('0');

    event_base_dispatch(srv.base);

    ns_server_save_now(&srv);
    remove_uri_file();
    cleanup_user();
    ns_server_stop(&srv);
    ns_server_save_now(&srv);
    for (int i = 0; i < 3; i++)
        event_free(sigs[i]);
    ns_tls_fini(&srv);
    ns_table_free(srv.table);
    OPENSSL_cleanse(&srv.id, sizeof srv.id.secret);
    free(srv.id.pem);
    event_base_free(srv.base);
    TIDE_DEBUG(1, "exited");
    return 0;
}
